package io.routegateway.core.forward;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.failure.Verdict;

/**
 * The outcome event of one counted forwarding attempt: success, transient failure (after
 * retries), permanent failure, or quota exhaustion. A not-a-failure response is not counted.
 */
public final class AttemptEvents {

    private AttemptEvents() {}

    /**
     * @param modelKey the model key the attempt is charged under; null degrades a failure to account
     *     scope
     */
    public static Optional<CredentialEvent> of(
            Verdict verdict, String credentialId, String modelKey, UUID eventId, Instant occurredAt) {
        if (verdict instanceof Verdict.Success) {
            return Optional.of(new CredentialEvent.AttemptSucceeded(eventId, credentialId, occurredAt, modelKey));
        }
        if (verdict instanceof Verdict.Transient failure) {
            return Optional.of(new CredentialEvent.TransientFailureRecorded(
                    eventId,
                    credentialId,
                    occurredAt,
                    modelKey,
                    failure.kind().label(),
                    failure.status(),
                    failure.message(),
                    failure.body()));
        }
        if (verdict instanceof Verdict.Permanent failure) {
            return Optional.of(new CredentialEvent.PermanentFailureRecorded(
                    eventId,
                    credentialId,
                    occurredAt,
                    modelKey,
                    failure.kind().label(),
                    failure.status(),
                    failure.message(),
                    failure.body()));
        }
        if (verdict instanceof Verdict.QuotaExhausted quota) {
            return Optional.of(new CredentialEvent.QuotaExhaustionRecorded(
                    eventId,
                    credentialId,
                    occurredAt,
                    modelKey,
                    quota.status(),
                    quota.message(),
                    quota.body(),
                    quota.resetsAt(),
                    quota.limitWindow()));
        }
        if (verdict instanceof Verdict.NotAFailure) {
            return Optional.empty();
        }
        throw new IllegalArgumentException(
                "unknown verdict " + verdict.getClass().getName());
    }
}
