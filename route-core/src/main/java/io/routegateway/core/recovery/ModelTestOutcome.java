package io.routegateway.core.recovery;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.OutcomeClassifier;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptEvents;

/**
 * What one model connectivity test means for the account: the outcome event to publish (if any)
 * and the answer shown to whoever asked. Both healthcheck probes and the admin test action are
 * explicit tests against a single account, so a pass is {@code ModelTestSucceeded(explicitTest)}
 * (full account-level recovery, sibling model rows untouched); a probe's pass is marked {@code
 * automatic} and leaves a pause or a blacklist to a person. A failure is published exactly as
 * classified ({@code model_test_status} / {@code model_test}, or the semantic and quota channels)
 * and nothing else. A client-side status such as 400 or 404 is not a failure of the credential:
 * the test did not pass, but no event is published.
 *
 * @param success whether the test passed
 * @param status the upstream HTTP status, null when none arrived
 * @param kind the failure label, null on success and on a not-a-failure status
 * @param message why it failed, null on success
 * @param event the outcome event, null when nothing is published
 */
public record ModelTestOutcome(
        boolean success, Integer status, FailureKind kind, String message, CredentialEvent event) {

    /**
     * @param verdict the {@code AttemptVerdict} of the test (its outcome with {@code modelTest =
     *     true}, judged for the account's kind and platform as a request is)
     * @param status the upstream status the classifier saw, null when none arrived
     * @param modelKey the model key the test is charged under
     * @param explicitTest whether the test targets this single account (manual test, healthcheck)
     * @param automatic whether a healthcheck probe ran it rather than a person: its pass never lifts
     *     an account pause or a blacklist
     */
    public static ModelTestOutcome of(
            Verdict verdict,
            Integer status,
            String credentialId,
            String modelKey,
            boolean explicitTest,
            boolean automatic,
            UUID eventId,
            Instant occurredAt) {
        if (verdict instanceof Verdict.Success) {
            return new ModelTestOutcome(
                    true,
                    status,
                    null,
                    null,
                    new CredentialEvent.ModelTestSucceeded(
                            eventId, credentialId, occurredAt, modelKey, explicitTest, automatic));
        }
        // a failing test is charged exactly like a failing forwarding attempt
        CredentialEvent failureEvent = AttemptEvents.of(verdict, credentialId, modelKey, eventId, occurredAt)
                .orElse(null);
        if (verdict instanceof Verdict.Transient failure) {
            return new ModelTestOutcome(false, failure.status(), failure.kind(), failure.message(), failureEvent);
        }
        if (verdict instanceof Verdict.Permanent failure) {
            return new ModelTestOutcome(false, failure.status(), failure.kind(), failure.message(), failureEvent);
        }
        if (verdict instanceof Verdict.QuotaExhausted quota) {
            return new ModelTestOutcome(false, quota.status(), quota.kind(), quota.message(), failureEvent);
        }
        if (verdict instanceof Verdict.NotAFailure notAFailure) {
            return new ModelTestOutcome(
                    false,
                    notAFailure.status(),
                    null,
                    OutcomeClassifier.synthesized(notAFailure.status())
                            + ", a client-side error that is not charged to the credential",
                    null);
        }
        throw new IllegalArgumentException("unknown verdict " + verdict);
    }

    /** The outcome event to publish to {@code route.outcomes}, empty for a not-a-failure status. */
    public Optional<CredentialEvent> outcomeEvent() {
        return Optional.ofNullable(event);
    }

    /** The failure label as stored and shown, null on success. */
    public String kindLabel() {
        return kind == null ? null : kind.label();
    }
}
