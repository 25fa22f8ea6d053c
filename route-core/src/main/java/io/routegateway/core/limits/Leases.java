package io.routegateway.core.limits;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;

/** The records of a lease's phases, built one way by every holder. */
public final class Leases {

    /** The default lease term ({@code gateway.admission.lease-ttl}); renewed after a third of it. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

    private Leases() {}

    /** A REQUEST lease's OPENED record: one admitted request of {@code accessKeyId} (and its team). */
    public static LeaseEvent openRequest(
            UUID leaseId,
            String origin,
            String accessKeyId,
            String teamId,
            Instant now,
            Duration ttl,
            long reservedTokens) {
        return new LeaseEvent(
                leaseId,
                origin,
                LeaseEvent.Kind.REQUEST,
                LeaseEvent.Phase.OPENED,
                accessKeyId,
                teamId,
                null,
                now,
                now.plus(ttl),
                Math.max(0, reservedTokens),
                null,
                null);
    }

    /** An ATTEMPT lease's OPENED record: one upstream attempt on {@code credentialId}. */
    public static LeaseEvent openAttempt(
            UUID leaseId,
            String origin,
            String credentialId,
            String accessKeyId,
            String teamId,
            Instant now,
            Duration ttl) {
        return new LeaseEvent(
                leaseId,
                origin,
                LeaseEvent.Kind.ATTEMPT,
                LeaseEvent.Phase.OPENED,
                accessKeyId,
                teamId,
                credentialId,
                now,
                now.plus(ttl),
                0,
                null,
                null);
    }

    /** The RENEWED record of {@code lease} (its newest OPENED/RENEWED record): term restarts at {@code now}. */
    public static LeaseEvent renewal(LeaseEvent lease, Instant now, Duration ttl) {
        return new LeaseEvent(
                lease.leaseId(),
                lease.origin(),
                lease.kind(),
                LeaseEvent.Phase.RENEWED,
                lease.accessKeyId(),
                lease.teamId(),
                lease.credentialId(),
                now,
                now.plus(ttl),
                lease.reservedTokens(),
                null,
                null);
    }

    /**
     * The CLOSED record of {@code lease}. {@code at} should be the usage record's {@code
     * occurred_at} (see {@link AdmissionLedger}); {@code settledTokens} its input + output tokens
     * (null = unknown: the reservation stands for the minute), {@code costMicros} its cost (null =
     * unpriced).
     */
    public static LeaseEvent close(LeaseEvent lease, Instant at, Long settledTokens, Long costMicros) {
        return new LeaseEvent(
                lease.leaseId(),
                lease.origin(),
                lease.kind(),
                LeaseEvent.Phase.CLOSED,
                lease.accessKeyId(),
                lease.teamId(),
                lease.credentialId(),
                at,
                null,
                lease.reservedTokens(),
                settledTokens,
                costMicros);
    }
}
