package io.routegateway.core.forward;

import io.routegateway.core.failure.Verdict;
import io.routegateway.core.policy.FailurePolicy;

/**
 * What the forwarding retry loop does after one upstream attempt (the spec's retry queue):
 *
 * <ol>
 *   <li>success → {@link #RETURN}, recorded as a success;
 *   <li>not a failure (400, 404, …) → {@link #RETURN} as the upstream sent it, nothing recorded;
 *   <li>a transient failure that allows a same-credential retry ({@code
 *       should_retry_same_credential_status}: never 401/403 or a 2xx failure body) while the
 *       credential's {@code retry_count} is not used up → {@link #RETRY_SAME} after {@code
 *       retry_interval_ms}, nothing recorded — except on the cooling probe (a credential chosen by
 *       the cooling fallback): the probe is one upstream attempt;
 *   <li>any other failure (transient with retries exhausted or not allowed, permanent, quota) →
 *       {@link #FAIL_OVER}: one failure recorded, the credential is excluded for the rest of the
 *       request ({@code credential_not_allowed}) and the next candidate is tried.
 * </ol>
 *
 * Once the first chunk of a stream has reached the client none of this applies: the outcome is
 * only recorded.
 */
public enum AttemptDecision {
    RETURN,
    RETRY_SAME,
    FAIL_OVER;

    /**
     * @param retriesUsed same-credential retries already made for this credential in this request
     */
    public static AttemptDecision after(Verdict verdict, int retriesUsed, FailurePolicy policy) {
        return after(verdict, retriesUsed, policy, false);
    }

    /**
     * @param retriesUsed same-credential retries already made for this credential in this request
     * @param coolingProbe the credential was chosen by the cooling fallback ({@link
     *     io.routegateway.core.select.RouteResult.Selected#fromCoolingFallback}): never retried on
     *     the same credential
     */
    public static AttemptDecision after(Verdict verdict, int retriesUsed, FailurePolicy policy, boolean coolingProbe) {
        if (verdict instanceof Verdict.Success || verdict instanceof Verdict.NotAFailure) {
            return RETURN;
        }
        if (!coolingProbe
                && verdict instanceof Verdict.Transient failure
                && failure.retrySameCredential()
                && retriesUsed < policy.retryCount()) {
            return RETRY_SAME;
        }
        return FAIL_OVER;
    }

    /** Whether an attempt with this verdict is recorded as an outcome event. */
    public static boolean counts(Verdict verdict, AttemptDecision decision) {
        return decision != RETRY_SAME && !(verdict instanceof Verdict.NotAFailure);
    }
}
