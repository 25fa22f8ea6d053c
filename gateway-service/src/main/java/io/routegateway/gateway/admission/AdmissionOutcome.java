package io.routegateway.gateway.admission;

import io.routegateway.core.forward.Refusal;
import io.routegateway.core.limits.RateLimitHeaders;

/** What the admission stage says of one request: go on with a {@link Ticket}, or a refusal to answer. */
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
}
