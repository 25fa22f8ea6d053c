package io.routegateway.core.limits;

import java.util.function.ToIntFunction;

/**
 * The load of the pool a request would be served by, for {@link FairShare}.
 *
 * @param capacity K, the sum of the pool's credentials' {@code max_parallel_requests}; ≤ 0 = some
 *     credential is unbounded, so no fair share
 * @param inFlight the pool's requests in flight
 * @param weights the weight of a team by id (its {@code weight}; unknown teams count as 1)
 */
public record PoolLoad(long capacity, long inFlight, ToIntFunction<String> weights) {

    public PoolLoad {
        weights = weights == null ? team -> 1 : weights;
    }

    /** Whether the pool has a finite capacity, so fair share can apply at all. */
    public boolean isBounded() {
        return capacity > 0;
    }
}
