package io.routegateway.gateway.admission;

import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.limits.RateLimitHeaders;

/**
 * What admission gave an admitted request: its team (for its usage record), its REQUEST lease (null
 * when its key and team have no limits: nothing was counted) and the rate-limit headers of its answer.
 */
public record Ticket(String teamId, LeaseEvent lease, RateLimitHeaders headers) {

    /** A request of a key without a team and without limits. */
    public static final Ticket NONE = new Ticket(null, null, RateLimitHeaders.NONE);

    public Ticket {
        headers = headers == null ? RateLimitHeaders.NONE : headers;
    }

    /** A request nothing limits: no lease, no headers. */
    static Ticket unlimited(String teamId) {
        return teamId == null ? NONE : new Ticket(teamId, null, RateLimitHeaders.NONE);
    }
}
