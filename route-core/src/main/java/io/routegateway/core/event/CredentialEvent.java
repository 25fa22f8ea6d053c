package io.routegateway.core.event;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Everything that changes a credential's health: outcomes of real requests and model tests,
 * recovery triggers and manual actions. Applied by {@code StateTransition}; the Kafka key is {@link
 * #credentialId()}, so one credential's events are applied in order.
 *
 * <p>Envelope fields (never null): {@code type} (stable, versioned, independent of class names),
 * {@code event_id} (idempotency key), {@code credential_id} (aggregate key), {@code occurred_at}.
 * Within {@code .v1} only optional fields may be added; a breaking change gets a new type name.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = CredentialEvent.AttemptSucceeded.class, name = "attempt-succeeded.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.TransientFailureRecorded.class, name = "transient-failure-recorded.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.PermanentFailureRecorded.class, name = "permanent-failure-recorded.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.QuotaExhaustionRecorded.class, name = "quota-exhaustion-recorded.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.ModelTestSucceeded.class, name = "model-test-succeeded.v1"),
    @JsonSubTypes.Type(
            value = CredentialEvent.ScheduledReactivationTriggered.class,
            name = "scheduled-reactivation-triggered.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.ModelPaused.class, name = "model-paused.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.ModelResumed.class, name = "model-resumed.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.ModelCleared.class, name = "model-cleared.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.AllModelsCleared.class, name = "all-models-cleared.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.CredentialPaused.class, name = "credential-paused.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.CredentialResumed.class, name = "credential-resumed.v1"),
    @JsonSubTypes.Type(value = CredentialEvent.CredentialRestored.class, name = "credential-restored.v1"),
})
public sealed interface CredentialEvent
        permits CredentialEvent.AttemptSucceeded,
                CredentialEvent.TransientFailureRecorded,
                CredentialEvent.PermanentFailureRecorded,
                CredentialEvent.QuotaExhaustionRecorded,
                CredentialEvent.ModelTestSucceeded,
                CredentialEvent.ScheduledReactivationTriggered,
                CredentialEvent.ModelPaused,
                CredentialEvent.ModelResumed,
                CredentialEvent.ModelCleared,
                CredentialEvent.AllModelsCleared,
                CredentialEvent.CredentialPaused,
                CredentialEvent.CredentialResumed,
                CredentialEvent.CredentialRestored {

    UUID eventId();

    String credentialId();

    Instant occurredAt();

    /** The stable wire type name, e.g. {@code attempt-succeeded.v1}. */
    default String type() {
        JsonSubTypes.Type[] types =
                CredentialEvent.class.getAnnotation(JsonSubTypes.class).value();
        for (JsonSubTypes.Type candidate : types) {
            if (candidate.value() == getClass()) {
                return candidate.name();
            }
        }
        throw new IllegalStateException("unregistered event class " + getClass().getName());
    }

    /**
     * A forwarded request (or probe) succeeded.
     *
     * @param modelKey the model key charged, null for model-less routes
     */
    record AttemptSucceeded(UUID eventId, String credentialId, Instant occurredAt, String modelKey)
            implements CredentialEvent {}

    /**
     * Retries exhausted on a transient failure: 408/401/403/429/5xx, transport, stall, a failure
     * body or a truncated stream, or a failing model test.
     *
     * @param kind the failure label, never null
     * @param status upstream HTTP status, null for transport failures
     * @param modelKey null degrades the failure to account scope
     * @param message may be null; stored truncated
     * @param responseBody raw upstream body, may be null; stored up to 8192 characters
     */
    record TransientFailureRecorded(
            UUID eventId,
            String credentialId,
            Instant occurredAt,
            String modelKey,
            String kind,
            Integer status,
            String message,
            String responseBody)
            implements CredentialEvent {}

    /** The error text says the credential itself is void (e.g. {@code invalid_grant}). */
    record PermanentFailureRecorded(
            UUID eventId,
            String credentialId,
            Instant occurredAt,
            String modelKey,
            String kind,
            Integer status,
            String message,
            String responseBody)
            implements CredentialEvent {}

    /**
     * A semantic failure recognised as quota exhaustion: the account channel, threshold 1. When the
     * upstream said when its usage window resets (an official account's usage-limit signal, see
     * {@code io.routegateway.core.quota.UsageLimits}) the account instead cools until then.
     *
     * @param message the upstream's message, or the usage-limit reason ("5-hour window resets at …")
     * @param resetsAt optional (JSON {@code resets_at}): when the upstream's usage window resets; null
     *     for the classic quota channel (the account flips to error)
     * @param limitWindow optional (JSON {@code limit_window}): the window that ran out, e.g. {@code
     *     5h}, {@code 7d}, {@code 1d}; null when the upstream did not say
     */
    record QuotaExhaustionRecorded(
            UUID eventId,
            String credentialId,
            Instant occurredAt,
            String modelKey,
            Integer status,
            String message,
            String responseBody,
            Instant resetsAt,
            String limitWindow)
            implements CredentialEvent {

        /** The classic quota channel: no reset time reported. */
        public static QuotaExhaustionRecorded withoutReset(
                UUID eventId,
                String credentialId,
                Instant occurredAt,
                String modelKey,
                Integer status,
                String message,
                String responseBody) {
            return new QuotaExhaustionRecorded(
                    eventId, credentialId, occurredAt, modelKey, status, message, responseBody, null, null);
        }
    }

    /**
     * A model connectivity test passed.
     *
     * @param explicitTest a test against this single account (manual or healthcheck): full
     *     account-level recovery, sibling model rows untouched
     * @param automatic optional (JSON {@code automatic}, absent = false): a healthcheck probe rather
     *     than a test a person ran. It never lifts an account pause or a blacklist, which only a
     *     person's action does ("automation may only undo automation")
     */
    record ModelTestSucceeded(
            UUID eventId,
            String credentialId,
            Instant occurredAt,
            String modelKey,
            boolean explicitTest,
            boolean automatic)
            implements CredentialEvent {}

    /** A configured recovery time fell in (previous tick, this tick]. */
    record ScheduledReactivationTriggered(UUID eventId, String credentialId, Instant occurredAt, String scheduledTime)
            implements CredentialEvent {}

    record ModelPaused(UUID eventId, String credentialId, Instant occurredAt, String modelKey)
            implements CredentialEvent {}

    record ModelResumed(UUID eventId, String credentialId, Instant occurredAt, String modelKey)
            implements CredentialEvent {}

    /** "解除": drop one model's cooldown and error state (a paused row stays paused). */
    record ModelCleared(UUID eventId, String credentialId, Instant occurredAt, String modelKey)
            implements CredentialEvent {}

    /** "全部解除": clears every model with something to clear; skips paused and healthy ones. */
    record AllModelsCleared(UUID eventId, String credentialId, Instant occurredAt) implements CredentialEvent {}

    record CredentialPaused(UUID eventId, String credentialId, Instant occurredAt) implements CredentialEvent {}

    record CredentialResumed(UUID eventId, String credentialId, Instant occurredAt) implements CredentialEvent {}

    /** Manual restore after verifying the credential: error/warning/revoked back to ok, traces cleared. */
    record CredentialRestored(UUID eventId, String credentialId, Instant occurredAt) implements CredentialEvent {}
}
