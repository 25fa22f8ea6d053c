package io.routegateway.state.credential;

import java.time.ZoneId;
import java.util.List;

import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.Weights;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;

/**
 * The checks and the mapping of a credential's input fields, without I/O: what a create stores and
 * what an update changes. {@link CredentialAdminService} only seals the secret, stamps times, checks
 * references and writes. A refusal is an {@link AdminException} (or route-core's {@code
 * ValidationException}) with the field's code; fields are checked in the order of {@link
 * CredentialInput}, so a body with two bad fields is refused for the first.
 */
public final class CredentialRules {

    /** Lowest and highest priority (lower goes first). */
    public static final int MIN_PRIORITY = 0;

    public static final int MAX_PRIORITY = 1_000_000;

    private CredentialRules() {}

    /**
     * Every field of a new credential, checked; the secret is still plain here and is sealed by the
     * service at once. It is null only for an official credential created to be authorized later.
     *
     * @param weight null keeps the stored default
     */
    public record NewCredential(
            String id,
            String name,
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String secret,
            String configJson,
            boolean enabled,
            boolean inPool,
            boolean archived,
            int priority,
            WeightMode weightMode,
            Integer weight,
            Long quotaRemaining,
            List<String> groupIds,
            CredentialLimits limits) {

        /** Never prints the secret, whoever logs this record. */
        @Override
        public String toString() {
            return "NewCredential[id=" + id + ", platform=" + platform.wire() + ", kind=" + kind.wire()
                    + ", secret=***]";
        }
    }

    /**
     * What an update reads of the stored credential.
     *
     * @param platform the stored wire value, read only when the update does not send one
     * @param kind the stored wire value, read only when the update does not send one
     * @param hasSecret whether a static secret is stored (an official credential may await authorization
     *     without one; the access token of an OAuth-managed one does not count)
     */
    public record Stored(
            String platform, String kind, String configJson, WeightMode weightMode, int weight, boolean hasSecret) {}

    /**
     * What an update changes. Null is "unchanged" for every field but the two that can be cleared,
     * which say so with their flag.
     *
     * @param platform the platform after the update (the stored one unless sent)
     * @param kind the kind after the update (the stored one unless sent)
     * @param secret a replacement secret, plain; null keeps the stored one
     * @param weight the mode and weight after the update
     * @param limits the new limits ({@link CredentialLimits#NONE}: none), or null when they stay
     */
    public record Changes(
            String name,
            Platform platform,
            CredentialKind kind,
            boolean baseUrlSent,
            String baseUrl,
            String secret,
            String configJson,
            Boolean enabled,
            Boolean inPool,
            Boolean archived,
            Integer priority,
            Weights.Setting weight,
            boolean quotaSent,
            Long quotaRemaining,
            List<String> groupIds,
            CredentialLimits limits) {

        /** Never prints the secret, whoever logs this record. */
        @Override
        public String toString() {
            return "Changes[platform=" + platform.wire() + ", kind=" + kind.wire() + ", secret="
                    + (secret == null ? "unchanged" : "***") + "]";
        }
    }

    /**
     * @param zone written into a scheduled recovery rule that names no time zone
     */
    public static NewCredential create(JsonBody<CredentialInput> body, ZoneId zone) {
        CredentialInput input = body.value();
        String id = Inputs.idOrNew(input.id(), "cred");
        String name = Inputs.name(input.name());
        Platform platform = platform(input.platform());
        CredentialKind kind = kind(input.kind());
        requireCapability(platform, kind);
        String baseUrl = Inputs.baseUrl(input.baseUrl());
        // an official account may be created without a secret: it awaits authorization (oauth unauthorized)
        String secret = kind == CredentialKind.OFFICIAL && input.secret() == null
                ? null
                : Inputs.secret(input.secret(), "secret is required");
        String configJson = CredentialConfig.write("{}", body, zone);
        int priority = input.priority() == null ? 0 : priority(input.priority());
        WeightMode mode = input.weightMode() == null ? WeightMode.AUTO : Inputs.weightMode(input.weightMode());
        Weights.requireWritable(mode, input.weight());
        Long quota = quota(input.quotaRemaining());
        List<String> groupIds = Inputs.ids(input.groupIds(), AdminCodes.GROUP_IDS, Inputs.MAX_GROUP_IDS);
        CredentialLimits limits = CredentialLimits.parse(body.node("limits"));
        return new NewCredential(
                id,
                name,
                platform,
                kind,
                baseUrl,
                secret,
                configJson,
                input.enabled() == null || input.enabled(),
                input.inPool() == null || input.inPool(),
                Boolean.TRUE.equals(input.archived()),
                priority,
                mode,
                input.weight(),
                quota,
                groupIds,
                limits);
    }

    /**
     * @param zone written into a scheduled recovery rule that names no time zone
     */
    public static Changes update(Stored stored, JsonBody<CredentialInput> body, ZoneId zone) {
        CredentialInput input = body.value();
        String name = body.has("name") ? Inputs.name(input.name()) : null;
        Platform platform =
                input.platform() == null ? Platform.fromWire(stored.platform()) : platform(input.platform());
        CredentialKind kind = input.kind() == null ? CredentialKind.fromWire(stored.kind()) : kind(input.kind());
        requireCapability(platform, kind);
        boolean baseUrlSent = body.has("base_url");
        String baseUrl = baseUrlSent ? Inputs.baseUrl(input.baseUrl()) : null;
        String secret = body.has("secret")
                ? Inputs.secret(input.secret(), "secret must not be blank; leave it out to keep it")
                : null;
        if (kind == CredentialKind.API && !stored.hasSecret() && secret == null) {
            throw AdminException.invalid(
                    AdminCodes.SECRET, "an api credential needs a secret: send one with the change of kind");
        }
        String configJson =
                CredentialConfig.touches(body) ? CredentialConfig.write(stored.configJson(), body, zone) : null;
        Integer priority = input.priority() == null ? null : priority(input.priority());
        WeightMode sentMode = input.weightMode() == null ? null : Inputs.weightMode(input.weightMode());
        Weights.Setting weight = Weights.afterUpdate(stored.weightMode(), stored.weight(), sentMode, input.weight());
        boolean quotaSent = body.has("quota_remaining");
        Long quota = quotaSent ? quota(input.quotaRemaining()) : null;
        List<String> groupIds =
                body.has("group_ids") ? Inputs.ids(input.groupIds(), AdminCodes.GROUP_IDS, Inputs.MAX_GROUP_IDS) : null;
        CredentialLimits limits = body.has("limits") ? CredentialLimits.parse(body.node("limits")) : null;
        return new Changes(
                name,
                platform,
                kind,
                baseUrlSent,
                baseUrl,
                secret,
                configJson,
                input.enabled(),
                input.inPool(),
                input.archived(),
                priority,
                weight,
                quotaSent,
                quota,
                groupIds,
                limits);
    }

    static Platform platform(String wire) {
        try {
            return Platform.fromWire(wire);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(
                    AdminCodes.PLATFORM, "platform must be one of claude, codex, gemini, grok, openai");
        }
    }

    static CredentialKind kind(String wire) {
        try {
            return CredentialKind.fromWire(wire);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(AdminCodes.KIND, "kind must be api or official");
        }
    }

    /** The platform capability rule (route-core's {@link Platform#accepts}). */
    static void requireCapability(Platform platform, CredentialKind kind) {
        if (!platform.accepts(kind)) {
            throw AdminException.invalid(
                    AdminCodes.PLATFORM_KIND,
                    "platform " + platform.wire() + " does not accept " + kind.wire() + " credentials");
        }
    }

    static int priority(int priority) {
        if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
            throw AdminException.invalid(AdminCodes.PRIORITY, "priority must be 0..1000000 (lower goes first)");
        }
        return priority;
    }

    static Long quota(Long quota) {
        if (quota != null && quota < 0) {
            throw AdminException.invalid(AdminCodes.QUOTA, "quota_remaining must be at least 0, or null for unlimited");
        }
        return quota;
    }
}
