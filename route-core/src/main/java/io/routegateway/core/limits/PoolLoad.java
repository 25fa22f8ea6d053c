package io.routegateway.core.limits;

import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The load of the pool a request would be served by, for {@link FairShare}.
 *
 * @param capacity K, the sum of the pool's credentials' {@code max_parallel_requests}; ≤ 0 = some
 *     credential is unbounded, so no fair share
 * @param inFlight the pool's requests in flight
 * @param weights the weight of a team by id (its {@code weight}; unknown teams count as 1)
 * @param sharesPool whether a team draws on this pool (a key of its is in one of the pool's groups);
 *     null = every team does
 */
public record PoolLoad(long capacity, long inFlight, ToIntFunction<String> weights, Predicate<String> sharesPool) {

    public PoolLoad {
        weights = weights == null ? team -> 1 : weights;
        sharesPool = sharesPool == null ? FairShare.EVERY_TEAM : sharesPool;
    }

    /** A pool every active team is taken to draw on. */
    public PoolLoad(long capacity, long inFlight, ToIntFunction<String> weights) {
        this(capacity, inFlight, weights, null);
    }

    /** Whether the pool has a finite capacity, so fair share can apply at all. */
    public boolean isBounded() {
        return capacity > 0;
    }
}
