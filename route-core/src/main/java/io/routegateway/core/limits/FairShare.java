package io.routegateway.core.limits;

import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Who yields when a pool is contended. The rule:
 *
 * <ol>
 *   <li>The pool's capacity K is the sum of its credentials' {@code max_parallel_requests}; a pool
 *       with any unbounded credential has no finite K and no fair share (everyone is admitted here).
 *   <li>The pool is <em>contended</em> when its requests in flight are at least K. Uncontended, every
 *       team is admitted (its own limits still apply).
 *   <li>Contended, the active teams (those with a request opened in the last minute or in flight,
 *       the requesting team always among them) split K by weight: team t's share is {@code K × w_t
 *       / Σ w} over the active teams, and at least 1. A team whose in-flight requests are at or
 *       above its share is refused ({@code concurrency_limit_exceeded}); a team under it is
 *       admitted, so the slots the over-users free go to the under-users first.
 * </ol>
 *
 * Shares are compared exactly ({@code inFlight × Σw ≥ K × w}), not rounded. Requests of keys
 * without a team are not subject to fair share.
 */
public final class FairShare {

    private FairShare() {}

    /** Whether a pool of {@code capacity} (≤ 0 = unbounded) with {@code inFlight} requests is contended. */
    public static boolean isContended(long capacity, long inFlight) {
        return capacity > 0 && inFlight >= capacity;
    }

    /**
     * Whether the requesting team is admitted.
     *
     * @param capacity the pool's K; ≤ 0 = unbounded (always admitted)
     * @param inFlight the pool's requests in flight
     * @param activeTeams the active teams' in-flight counts (as {@link LedgerView#teamsActiveSince})
     * @param weights the weight of an active team (its {@code weight}, 1..1000)
     * @param teamId the requesting team; null = a key without a team (always admitted)
     * @param teamWeight the requesting team's weight
     */
    public static boolean admits(
            long capacity,
            long inFlight,
            Map<String, Long> activeTeams,
            ToIntFunction<String> weights,
            String teamId,
            int teamWeight) {
        if (teamId == null || !isContended(capacity, inFlight)) {
            return true;
        }
        long ownWeight = Math.max(1, teamWeight);
        long totalWeight = ownWeight;
        for (String team : activeTeams.keySet()) {
            if (!team.equals(teamId)) {
                totalWeight += Math.max(1, weights.applyAsInt(team));
            }
        }
        Long own = activeTeams.get(teamId);
        long teamInFlight = own == null ? 0 : own;
        return underShare(capacity, teamInFlight, ownWeight, totalWeight);
    }

    /**
     * Whether {@code teamInFlight} is under the share {@code max(1, capacity × weight / totalWeight)}.
     */
    public static boolean underShare(long capacity, long teamInFlight, long weight, long totalWeight) {
        if (teamInFlight < 1) {
            return true;
        }
        return multiplySaturated(teamInFlight, totalWeight) < multiplySaturated(capacity, weight);
    }

    private static long multiplySaturated(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        return high == 0 && low >= 0 ? low : Long.MAX_VALUE;
    }
}
