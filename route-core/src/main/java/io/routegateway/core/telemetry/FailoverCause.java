package io.routegateway.core.telemetry;

import io.routegateway.core.failure.FailureScope;
import io.routegateway.core.failure.Verdict;

/**
 * Why a request switched to another credential, as the {@code kind} and {@code scope} tags of
 * {@code gateway_failovers_total}: the failure's label (one of the nine {@code FailureKind} labels)
 * and the cooldown layer it was charged to ({@code account} or {@code model}, the spec's {@code
 * is_account_scoped_failure}; a permanent failure revokes the account).
 */
public record FailoverCause(String kind, String scope) {

    /** A switch without a recorded failure (none is known to happen; counted rather than lost). */
    public static final FailoverCause UNKNOWN = new FailoverCause("none", "none");

    /**
     * @param failure the verdict that ended the previous credential's attempts
     * @param modelKey the model key it was charged under, null when the request named none
     */
    public static FailoverCause of(Verdict failure, String modelKey) {
        if (failure == null || !failure.isFailure()) {
            return UNKNOWN;
        }
        String kind = failure.failureLabel();
        if (failure instanceof Verdict.Permanent) {
            return new FailoverCause(kind, "account");
        }
        Integer status = failure instanceof Verdict.Transient transientFailure
                ? transientFailure.status()
                : ((Verdict.QuotaExhausted) failure).status();
        return new FailoverCause(kind, FailureScope.chargesAccount(kind, status, modelKey) ? "account" : "model");
    }
}
