package io.routegateway.core.failure;

import java.time.Instant;

/**
 * The classification of one upstream attempt. Only {@link Transient}, {@link Permanent} and {@link
 * QuotaExhausted} touch account or model health; {@link NotAFailure} is returned to the client as
 * the upstream sent it.
 */
public sealed interface Verdict
        permits Verdict.Success, Verdict.NotAFailure, Verdict.Transient, Verdict.Permanent, Verdict.QuotaExhausted {

    Success SUCCESS = new Success();

    /** Whether the attempt is charged to the credential's health. */
    default boolean isFailure() {
        return this instanceof Transient || this instanceof Permanent || this instanceof QuotaExhausted;
    }

    /** The attempt's label in metrics: success, not_a_failure, transient, permanent or quota. */
    default String outcomeLabel() {
        if (this instanceof Success) {
            return "success";
        }
        if (this instanceof NotAFailure) {
            return "not_a_failure";
        }
        if (this instanceof Permanent) {
            return "permanent";
        }
        return this instanceof QuotaExhausted ? "quota" : "transient";
    }

    /** A failure's kind label (the usage record's reason code), null for a success or a client error. */
    default String failureLabel() {
        if (this instanceof Transient failure) {
            return failure.kind().label();
        }
        if (this instanceof Permanent failure) {
            return failure.kind().label();
        }
        return this instanceof QuotaExhausted quota ? quota.kind().label() : null;
    }

    /** A usable response: success clearing applies. */
    record Success() implements Verdict {}

    /** A client-side problem (400, 404, ...): no counter moves, the body goes to the client as-is. */
    record NotAFailure(int status) implements Verdict {}

    /**
     * Back off and fail over.
     *
     * @param kind the failure label ({@code upstream_status}, {@code transport}, {@code
     *     semantic_response_transient}, {@code model_test_status}, {@code model_test})
     * @param status upstream status, null for transport failures
     * @param message synthesized for status failures ({@code upstream returned 429}), the upstream's
     *     own text for semantic failures, {@link StreamCompletion#DISCONNECTED_MESSAGE} for
     *     truncation
     * @param body raw upstream body (original wording of a status failure), may be null
     * @param retrySameCredential whether the same credential may be retried first (never on 401/403
     *     or 2xx, see {@link FailureClassifier#shouldRetrySameCredentialStatus(int)})
     */
    record Transient(FailureKind kind, Integer status, String message, String body, boolean retrySameCredential)
            implements Verdict {}

    /** The credential is void: revoke, no backoff, no same-credential retry. */
    record Permanent(FailureKind kind, Integer status, String message, String body) implements Verdict {}

    /**
     * Quota exhaustion: the account-level semantic channel with threshold 1 ({@code
     * semantic_response_failed}). The message is the upstream's, verbatim, or the reason of a
     * usage-limit signal.
     *
     * @param resetsAt when the upstream's usage window resets (an official account's usage-limit
     *     signal): the account cools until then instead of flipping to error; null otherwise
     * @param limitWindow the window that ran out ({@code 5h}, {@code 7d}, …), may be null
     */
    record QuotaExhausted(Integer status, String message, String body, Instant resetsAt, String limitWindow)
            implements Verdict {

        /** The classic quota channel: no reset time known. */
        public QuotaExhausted(Integer status, String message, String body) {
            this(status, message, body, null, null);
        }

        public FailureKind kind() {
            return FailureKind.SEMANTIC_RESPONSE_FAILED;
        }

        /** This verdict with another message and body, the reset kept. */
        public QuotaExhausted withText(String message, String body) {
            return new QuotaExhausted(status, message, body, resetsAt, limitWindow);
        }
    }
}
