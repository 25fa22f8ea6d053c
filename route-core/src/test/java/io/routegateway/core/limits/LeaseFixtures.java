package io.routegateway.core.limits;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;

/** Lease records for the limits tests. */
final class LeaseFixtures {

    static final Instant T0 = Instant.parse("2026-03-10T12:00:00Z");
    static final Duration TTL = Duration.ofSeconds(60);
    static final String ORIGIN = "replica-a";

    private LeaseFixtures() {}

    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    static Instant atMillis(long millis) {
        return T0.plusMillis(millis);
    }

    static LeaseEvent opened(UUID id, String key, String team, Instant at, long reserved) {
        return Leases.openRequest(id, ORIGIN, key, team, at, TTL, reserved);
    }

    static LeaseEvent renewed(LeaseEvent lease, Instant at) {
        return Leases.renewal(lease, at, TTL);
    }

    static LeaseEvent closed(LeaseEvent lease, Instant at, Long settled, Long cost) {
        return Leases.close(lease, at, settled, cost);
    }

    static LeaseEvent attempt(UUID id, String credential, Instant at) {
        return Leases.openAttempt(id, ORIGIN, credential, "k1", "t1", at, TTL);
    }
}
