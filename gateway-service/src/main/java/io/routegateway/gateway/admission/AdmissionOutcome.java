package io.routegateway.gateway.admission;

import io.routegateway.core.forward.Refusal;
import io.routegateway.core.limits.RateLimitHeaders;

/**
 * What the admission stage says of one request: go on with a {@link Ticket}, a refusal to answer, or
 * ask again after a pause (a fair-share refusal while the peers' counts may still be catching up).
 */
public sealed interface AdmissionOutcome {

    /** The request goes on to routing. */
    record Admitted(Ticket ticket) implements AdmissionOutcome {}

    /**
     * The request is answered now, nothing sent upstream.
     *
     * @param teamId the key's team, for the usage record (null = none)
     * @param retryAfterSeconds the {@code Retry-After}, null when no wait helps (a lifetime budget)
     * @param headers the rate-limit headers of the answer
     */
    record Refused(Refusal refusal, String teamId, Long retryAfterSeconds, RateLimitHeaders headers)
            implements AdmissionOutcome {}

    /**
     * Refused by fair share for now: decide again in {@code pauseMillis} (route-core {@code
     * SlotWait.recheckInMillis}); nothing counted, nothing answered yet.
     *
     * @param refused the refusal it would be now, for a client that goes away meanwhile
     */
    record Recheck(long pauseMillis, Refused refused) implements AdmissionOutcome {}
}
