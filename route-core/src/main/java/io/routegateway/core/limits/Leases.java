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

    /**
     * A peer's lease as far as it can be believed, or null: it names itself, its holder, what it is
     * and when; a slot is held at most one lease term past now whatever the record says (a peer's
     * clock or a forged record cannot hold a slot for longer). Every reader of {@code
     * route.admissions} passes what it reads through this before counting it.
     */
    public static LeaseEvent plausible(LeaseEvent lease, long nowMillis, long leaseTtlMillis) {
        if (lease == null
                || lease.leaseId() == null
                || lease.kind() == null
                || lease.phase() == null
                || lease.at() == null
                || lease.reservedTokens() < 0
                || (lease.settledTokens() != null && lease.settledTokens() < 0)
                || (lease.costMicros() != null && lease.costMicros() < 0)
                || (lease.accessKeyId() == null && lease.teamId() == null && lease.credentialId() == null)) {
            return null;
        }
        Instant latest = Instant.ofEpochMilli(nowMillis + leaseTtlMillis);
        if (lease.expiresAt() != null && lease.expiresAt().isAfter(latest)) {
            return new LeaseEvent(
                    lease.leaseId(),
                    lease.origin(),
                    lease.kind(),
                    lease.phase(),
                    lease.accessKeyId(),
                    lease.teamId(),
                    lease.credentialId(),
                    lease.at(),
                    latest,
                    lease.reservedTokens(),
                    lease.settledTokens(),
                    lease.costMicros());
        }
        return lease;
    }
}
