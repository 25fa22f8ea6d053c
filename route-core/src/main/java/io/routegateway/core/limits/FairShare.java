package io.routegateway.core.limits;

import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Who yields when a pool is the bottleneck. The rule:
 *
 * <ol>
 *   <li>The pool's capacity K is the sum of its credentials' {@code max_parallel_requests}; a pool
 *       with any unbounded credential has no finite K and no fair share (everyone is admitted here).
 *   <li>The <em>active</em> teams of the pool are those that draw on it (a key of theirs is in one of
 *       its groups) with a request opened in the last minute or in flight; the requesting team is
 *       always among them. They split K by weight: team t's share is {@code K × w_t / Σ w}, and at
 *       least 1.
 *   <li>A team <em>under</em> its share (its requests in flight fewer than its share) is admitted,
 *       even when the pool is full: it waits for the next free slot at routing (the gateway's
 *       bounded slot wait) and, while it waits, the slot is claimed for it (below).
 *   <li>A team <em>at or above</em> its share only borrows: it is admitted when a slot is free beyond
 *       the unused shares of the other active teams, i.e. when {@code K − inFlight − 1 ≥ Σ_u max(0,
 *       share_u − inFlight_u)}; otherwise it is refused ({@code concurrency_limit_exceeded}, field
 *       {@code fair_share}). Alone on the pool a team borrows every slot; once another team is
 *       active, the slots its share claims stay free for it, so a burst of one team cannot take the
 *       whole pool from a quiet one.
 * </ol>
 *
 * Shares are compared exactly (in units of 1/Σw: {@code inFlight × Σw} against {@code max(K × w,
 * Σw)}), not rounded. Requests of keys without a team are not subject to fair share.
 */
public final class FairShare {

    /** Every active team draws on the pool (when the caller cannot tell). */
    public static final Predicate<String> EVERY_TEAM = team -> true;

    private FairShare() {}

    /** Whether a pool of {@code capacity} (≤ 0 = unbounded) with {@code inFlight} requests is full. */
    public static boolean isContended(long capacity, long inFlight) {
        return capacity > 0 && inFlight >= capacity;
    }

    /** {@link #admits(long, long, Map, ToIntFunction, Predicate, String, int)} with every team sharing the pool. */
    public static boolean admits(
            long capacity,
            long inFlight,
            Map<String, Long> activeTeams,
            ToIntFunction<String> weights,
            String teamId,
            int teamWeight) {
        return admits(capacity, inFlight, activeTeams, weights, EVERY_TEAM, teamId, teamWeight);
    }

    /**
     * Whether the requesting team is admitted.
     *
     * @param capacity the pool's K; ≤ 0 = unbounded (always admitted)
     * @param inFlight the pool's requests in flight
     * @param activeTeams the teams active in the cluster with their in-flight counts (as {@link
     *     LedgerView#teamsActiveSince})
     * @param weights the weight of an active team (its {@code weight}, 1..1000)
     * @param sharesPool whether an active team draws on this pool (null = every team)
     * @param teamId the requesting team; null = a key without a team (always admitted)
     * @param teamWeight the requesting team's weight
     */
    public static boolean admits(
            long capacity,
            long inFlight,
            Map<String, Long> activeTeams,
            ToIntFunction<String> weights,
            Predicate<String> sharesPool,
            String teamId,
            int teamWeight) {
        if (teamId == null || capacity <= 0) {
            return true;
        }
        Predicate<String> sharing = sharesPool == null ? EVERY_TEAM : sharesPool;
        long ownWeight = Math.max(1, teamWeight);
        long totalWeight = ownWeight;
        for (String team : activeTeams.keySet()) {
            if (!team.equals(teamId) && sharing.test(team)) {
                totalWeight = saturatedAdd(totalWeight, Math.max(1, weights.applyAsInt(team)));
            }
        }
        Long own = activeTeams.get(teamId);
        long teamInFlight = own == null ? 0 : Math.max(0, own);
        if (underShare(capacity, teamInFlight, ownWeight, totalWeight)) {
            return true;
        }
        long free = capacity - Math.max(0, inFlight) - 1;
        if (free < 0) {
            return false;
        }
        // the others' unused shares, in units of 1/totalWeight
        long claimed = 0;
        for (Map.Entry<String, Long> active : activeTeams.entrySet()) {
            String team = active.getKey();
            if (team.equals(teamId) || !sharing.test(team)) {
                continue;
            }
            long share = Math.max(saturatedMultiply(capacity, Math.max(1, weights.applyAsInt(team))), totalWeight);
            long held = saturatedMultiply(Math.max(0, active.getValue() == null ? 0 : active.getValue()), totalWeight);
            if (held < share) {
                claimed = saturatedAdd(claimed, share - held);
            }
        }
        // a saturated claim is refused: the exact answer is unknown, and yielding is the safe side
        return claimed != Long.MAX_VALUE && saturatedMultiply(free, totalWeight) >= claimed;
    }

    /**
     * Whether {@code teamInFlight} is under the share {@code max(1, capacity × weight / totalWeight)}.
     */
    public static boolean underShare(long capacity, long teamInFlight, long weight, long totalWeight) {
        if (teamInFlight < 1) {
            return true;
        }
        return compareProducts(teamInFlight, Math.max(1, totalWeight), Math.max(0, capacity), Math.max(1, weight)) < 0;
    }

    /** Compares a × b with c × d exactly (128-bit products) for non-negative operands. */
    private static int compareProducts(long a, long b, long c, long d) {
        long high = Math.multiplyHigh(a, b);
        long otherHigh = Math.multiplyHigh(c, d);
        if (high != otherHigh) {
            return Long.compare(high, otherHigh);
        }
        return Long.compareUnsigned(a * b, c * d);
    }

    private static long saturatedMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
