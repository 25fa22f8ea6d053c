package io.routegateway.core.event;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;

/**
 * Type {@code credential-state.v1} on {@link Topics#CREDENTIAL_STATE}, keyed by credential id:
 * everything routing needs about one credential, versioned so a reader only ever moves forward.
 * Never carries the clear-text secret, only {@code encrypted_secret} (AES-GCM under the shared
 * secret-encryption key).
 *
 * @param version strictly increasing per credential; a reader ignores a version not above the one
 *     it holds
 * @param quotaRemaining null = unlimited; 0 or less excludes the credential
 * @param weight manual weight 1..100 (ignored in auto mode)
 * @param groupIds groups whose pool contains this credential
 * @param models the model rows (only failures and pauses), published without their failure texts
 *     ({@link ModelState#withoutFailureTexts()}): routing never reads them, the database keeps them
 * @param oauth the OAuth status of an OAuth-managed official credential (then {@code
 *     encrypted_secret} is its sealed current access token); null for api credentials and for
 *     official credentials holding a static token. Optional on the wire.
 * @param outcomeSentAt when the outcome that caused this version left the replica (or
 *     recovery-service) that saw it: the timestamp of its {@link Topics#OUTCOMES} record, so each
 *     reader can time an outcome's way to its view; null when an admin action, a refresh or the
 *     start-up republication wrote this version. Optional on the wire.
 * @param limits what the credential itself allows (its relay's limits); optional on the wire
 * @param upstreamHeaders the account-steering headers the admin set ({@link CredentialHeaders});
 *     optional on the wire
 */
public record CredentialSnapshot(
        String credentialId,
        long version,
        String name,
        Platform platform,
        CredentialKind kind,
        String baseUrl,
        String encryptedSecret,
        List<ModelMapping> modelMappings,
        FailurePolicy failurePolicy,
        boolean enabled,
        boolean archived,
        boolean inPool,
        int priority,
        WeightMode weightMode,
        int weight,
        Long quotaRemaining,
        List<String> groupIds,
        AccountState account,
        List<ModelState> models,
        Instant publishedAt,
        OAuthStatus oauth,
        Instant outcomeSentAt,
        OutcomePosition outcomePosition,
        CredentialLimits limits,
        CredentialHeaders upstreamHeaders) {

    public static final String TYPE = "credential-state.v1";

    /** A credential without limits of its own. */
    public CredentialSnapshot(
            String credentialId,
            long version,
            String name,
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String encryptedSecret,
            List<ModelMapping> modelMappings,
            FailurePolicy failurePolicy,
            boolean enabled,
            boolean archived,
            boolean inPool,
            int priority,
            WeightMode weightMode,
            int weight,
            Long quotaRemaining,
            List<String> groupIds,
            AccountState account,
            List<ModelState> models,
            Instant publishedAt,
            OAuthStatus oauth,
            Instant outcomeSentAt,
            OutcomePosition outcomePosition) {
        this(
                credentialId,
                version,
                name,
                platform,
                kind,
                baseUrl,
                encryptedSecret,
                modelMappings,
                failurePolicy,
                enabled,
                archived,
                inPool,
                priority,
                weightMode,
                weight,
                quotaRemaining,
                groupIds,
                account,
                models,
                publishedAt,
                oauth,
                outcomeSentAt,
                outcomePosition,
                CredentialLimits.NONE);
    }

    /** A credential without steering headers of its own. */
    public CredentialSnapshot(
            String credentialId,
            long version,
            String name,
            Platform platform,
            CredentialKind kind,
            String baseUrl,
            String encryptedSecret,
            List<ModelMapping> modelMappings,
            FailurePolicy failurePolicy,
            boolean enabled,
            boolean archived,
            boolean inPool,
            int priority,
            WeightMode weightMode,
            int weight,
            Long quotaRemaining,
            List<String> groupIds,
            AccountState account,
            List<ModelState> models,
            Instant publishedAt,
            OAuthStatus oauth,
            Instant outcomeSentAt,
            OutcomePosition outcomePosition,
            CredentialLimits limits) {
        this(
                credentialId,
                version,
                name,
                platform,
                kind,
                baseUrl,
                encryptedSecret,
                modelMappings,
                failurePolicy,
                enabled,
                archived,
                inPool,
                priority,
                weightMode,
                weight,
                quotaRemaining,
                groupIds,
                account,
                models,
                publishedAt,
                oauth,
                outcomeSentAt,
                outcomePosition,
                limits,
                CredentialHeaders.NONE);
    }

    public CredentialSnapshot {
        modelMappings = modelMappings == null ? List.of() : List.copyOf(modelMappings);
        groupIds = groupIds == null ? List.of() : List.copyOf(groupIds);
        models = models == null ? List.of() : List.copyOf(models);
        failurePolicy = failurePolicy == null ? FailurePolicy.DEFAULTS : failurePolicy;
        weightMode = weightMode == null ? WeightMode.AUTO : weightMode;
        account = account == null ? AccountState.HEALTHY : account;
        limits = limits == null ? CredentialLimits.NONE : limits;
        upstreamHeaders = upstreamHeaders == null ? CredentialHeaders.NONE : upstreamHeaders;
    }

    /** The account row and the model rows as one health state (rows keyed by model key). */
    @JsonIgnore
    public CredentialHealth health() {
        return CredentialHealth.of(account, models);
    }

    /** This snapshot with another health state; the version and every other field are kept. */
    public CredentialSnapshot withHealth(CredentialHealth health) {
        return withHealth(health, outcomePosition);
    }

    /**
     * This snapshot with another health state that also reflects the outcome record at {@code
     * position}; the version and every other field are kept.
     */
    public CredentialSnapshot withHealth(CredentialHealth health, OutcomePosition position) {
        return new CredentialSnapshot(
                credentialId,
                version,
                name,
                platform,
                kind,
                baseUrl,
                encryptedSecret,
                modelMappings,
                failurePolicy,
                enabled,
                archived,
                inPool,
                priority,
                weightMode,
                weight,
                quotaRemaining,
                groupIds,
                health.account(),
                new ArrayList<>(health.models().values()),
                publishedAt,
                oauth,
                outcomeSentAt,
                position,
                limits,
                upstreamHeaders);
    }

    /**
     * Whether this is an OAuth-managed official credential whose access token is not usable now
     * (expired, or awaiting onboarding).
     */
    @JsonIgnore
    public boolean authUnavailable() {
        return oauth != null && !oauth.usable();
    }

    /** What {@link #encryptedSecret} is sealed to: it opens only while these fields are unchanged. */
    @JsonIgnore
    public SecretBox.Binding secretBinding() {
        return new SecretBox.Binding(
                credentialId, platform == null ? "" : platform.wire(), baseUrl == null ? "" : baseUrl);
    }

    /** The wire type name, carried as a field so readers can check what they got. */
    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
