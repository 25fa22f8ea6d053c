package io.routegateway.state.accesskey;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.text.StorableText;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;

/**
 * The checks and the mapping of an AccessKey's input fields, without I/O: what a create stores and
 * what an update changes. {@link AccessKeyAdminService} draws the key, hashes it, checks references
 * and writes. Fields are checked in the order of {@link AccessKeyInput}.
 */
public final class AccessKeyRules {

    private AccessKeyRules() {}

    /** Every field of a new key, checked; {@code expiresAt} null = never, {@code teamId} null = none. */
    public record NewAccessKey(
            String id,
            String name,
            boolean enabled,
            Instant expiresAt,
            List<Protocol> allowedProtocols,
            List<String> allowedModels,
            List<String> groupIds,
            String teamId,
            Limits limits) {}

    /**
     * What an update changes; null is "unchanged" except for the expiry, which can be cleared and says
     * so with {@code expirySent}.
     *
     * @param groupIds the whole new scope in failover order, or null when it stays
     * @param teamSent whether {@code team_id} was sent; then {@code teamId} is the new team (null: none)
     * @param limits the new limits ({@link Limits#NONE}: none), or null when they stay
     */
    public record Changes(
            String name,
            Boolean enabled,
            boolean expirySent,
            Instant expiresAt,
            List<Protocol> allowedProtocols,
            List<String> allowedModels,
            List<String> groupIds,
            boolean teamSent,
            String teamId,
            Limits limits) {}

    /**
     * A team role keeps a key's limits within its team's ({@link Limits#beyond}): a field above the
     * team's is 400 {@code validation.limits}, naming the fields. A field the key leaves open takes
     * the team's anyway.
     */
    public static void requireWithinTeam(Limits keyLimits, Limits teamLimits) {
        List<String> beyond = keyLimits == null ? List.of() : keyLimits.beyond(teamLimits);
        if (!beyond.isEmpty()) {
            throw AdminException.invalid(
                    Limits.CODE,
                    "a team role keeps a key's limits within its team's: " + String.join(", ", beyond)
                            + " above the team's");
        }
    }

    public static NewAccessKey create(JsonBody<AccessKeyInput> body) {
        AccessKeyInput input = body.value();
        String id = Inputs.idOrNew(input.id(), "ak");
        String name = Inputs.name(input.name());
        Instant expiresAt = expiry(body);
        List<Protocol> protocols = Inputs.protocols(input.allowedProtocols());
        List<String> models = Inputs.models(input.allowedModels());
        List<String> groupIds = Inputs.ids(input.groupIds(), AdminCodes.GROUP_IDS, Inputs.MAX_GROUP_IDS);
        String teamId = teamId(input.teamId());
        Limits limits = Limits.parse(body.node("limits"));
        return new NewAccessKey(
                id,
                name,
                input.enabled() == null || input.enabled(),
                expiresAt,
                protocols,
                models,
                groupIds,
                teamId,
                limits);
    }

    public static Changes update(JsonBody<AccessKeyInput> body) {
        AccessKeyInput input = body.value();
        String name = body.has("name") ? Inputs.name(input.name()) : null;
        boolean expirySent = body.has("expires_at");
        Instant expiresAt = expirySent ? expiry(body) : null;
        List<Protocol> protocols = body.has("allowed_protocols") ? Inputs.protocols(input.allowedProtocols()) : null;
        List<String> models = body.has("allowed_models") ? Inputs.models(input.allowedModels()) : null;
        List<String> groupIds =
                body.has("group_ids") ? Inputs.ids(input.groupIds(), AdminCodes.GROUP_IDS, Inputs.MAX_GROUP_IDS) : null;
        boolean teamSent = body.has("team_id");
        String teamId = teamSent ? teamId(input.teamId()) : null;
        Limits limits = body.has("limits") ? Limits.parse(body.node("limits")) : null;
        return new Changes(
                name, input.enabled(), expirySent, expiresAt, protocols, models, groupIds, teamSent, teamId, limits);
    }

    /**
     * A team id as sent: null = none; anything but a well-formed id is {@code validation.team_id}
     * (whether a team has it is checked under the team's lock). The value is never echoed.
     */
    static String teamId(String teamId) {
        if (teamId == null) {
            return null;
        }
        if (!Inputs.isId(teamId)) {
            throw AdminException.invalid(
                    AdminCodes.TEAM_ID, "team_id must be a team's id ([A-Za-z0-9][A-Za-z0-9._-]{0,63}) or null");
        }
        return teamId;
    }

    /** The instant as sent; Jackson's reader trims the text, so a U+0000 or control character around it is refused here. */
    static Instant expiry(JsonBody<AccessKeyInput> body) {
        JsonNode sent = body.node("expires_at");
        if (sent != null && sent.isTextual() && !StorableText.isSingleLine(sent.asText(), Inputs.MAX_QUERY_VALUE)) {
            throw AdminException.invalid(AdminCodes.FIELD_TYPE, "expires_at must be an ISO-8601 instant");
        }
        return body.value().expiresAt();
    }
}
