package io.routegateway.core.limits;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import static io.routegateway.core.limits.LeaseFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One replica admitting random traffic through {@link AdmissionLedger#admit}: whatever it admits,
 * counted independently of the ledger, never exceeds a limit.
 */
class AdmissionProperties {

    record Running(long endsAt, LeaseEvent lease, long settled) {}

    @Property(tries = 150)
    void admittedTrafficNeverExceedsTheLimits(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int rpm = 1 + r.nextInt(40);
        long tpm = 1_000 + r.nextLong(50_000);
        int parallel = 1 + r.nextInt(8);
        Limits keyLimits =
                new Limits(r.nextBoolean() ? rpm : null, null, r.nextBoolean() ? parallel : null, null, null);
        Limits teamLimits =
                new Limits(r.nextBoolean() ? rpm : null, tpm, r.nextBoolean() ? parallel : null, null, null);
        AdmissionLedger ledger = new AdmissionLedger();
        List<Long> admittedAt = new ArrayList<>();
        // Tokens as the ledger defines them, counted here: [time settled, tokens] of closed requests.
        List<long[]> settled = new ArrayList<>();
        PriorityQueue<Running> running = new PriorityQueue<>((a, b) -> Long.compare(a.endsAt(), b.endsAt()));
        long now = 0;
        for (int i = 0; i < 400; i++) {
            now += r.nextLong(2_000);
            while (!running.isEmpty() && running.peek().endsAt() <= now) {
                Running done = running.poll();
                ledger.apply(
                        Leases.close(done.lease(), T0.plusMillis(done.endsAt()), done.settled(), 1L),
                        T0.plusMillis(now));
                settled.add(new long[] {done.endsAt(), done.settled()});
            }
            long reservation = TokenReservation.of(r.nextLong(2_000), r.nextBoolean() ? null : r.nextLong(3_000));
            AdmissionRequest request =
                    new AdmissionRequest("k1", keyLimits, "t1", teamLimits, 1, reservation, null, ZoneOffset.UTC);
            LeaseEvent opened = Leases.openRequest(
                    UUID.randomUUID(),
                    "o",
                    "k1",
                    "t1",
                    T0.plusMillis(now),
                    LeaseFixtures.TTL,
                    request.reservedTokens());
            long before = tokensInWindow(settled, running, now);
            AdmissionDecision decision = ledger.admit(T0.plusMillis(now), request, opened);
            if (!decision.admitted()) {
                assertThat(decision.retryAfterSeconds()).isBetween(1L, 60L);
                continue;
            }
            admittedAt.add(now);
            long windowStart = now - 60_000;
            long inWindow = admittedAt.stream().filter(t -> t > windowStart).count();
            if (keyLimits.rpmLimit() != null) {
                assertThat(inWindow).isLessThanOrEqualTo(keyLimits.rpmLimit());
            }
            if (teamLimits.rpmLimit() != null) {
                assertThat(inWindow).isLessThanOrEqualTo(teamLimits.rpmLimit());
            }
            if (keyLimits.maxParallelRequests() != null) {
                assertThat(running.size() + 1).isLessThanOrEqualTo(keyLimits.maxParallelRequests());
            }
            if (teamLimits.maxParallelRequests() != null) {
                assertThat(running.size() + 1).isLessThanOrEqualTo(teamLimits.maxParallelRequests());
            }
            assertThat(before + request.reservedTokens()).isLessThanOrEqualTo(tpm);
            // Runs 0.1..50 s (within its lease term), settles around its reservation.
            long settles = Math.max(0, request.reservedTokens() - 500 + r.nextLong(1_000));
            running.add(new Running(now + 100 + r.nextLong(50_000), opened, settles));
        }
    }

    private static long tokensInWindow(List<long[]> settled, PriorityQueue<Running> running, long now) {
        long tokens = 0;
        for (long[] entry : settled) {
            if (entry[0] > now - 60_000) {
                tokens += entry[1];
            }
        }
        for (Running run : running) {
            tokens += run.lease().reservedTokens();
        }
        return tokens;
    }
}
