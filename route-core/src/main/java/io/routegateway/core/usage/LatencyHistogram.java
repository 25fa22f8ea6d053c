package io.routegateway.core.usage;

import java.util.List;

/**
 * The fixed latency buckets of the usage rollups: bucket {@code i} counts requests with {@code
 * BOUNDS_MS[i-1] <= latency_ms < BOUNDS_MS[i]} (bucket 0 from 0, the last one unbounded). The
 * migration's {@code request_logs_fold()} and state-service's stats SQL count with these bounds
 * (a test checks the database's buckets against them). Percentiles are read as the upper bound of
 * the bucket where the cumulative count reaches the rank: an over-estimate by at most one bucket.
 */
public final class LatencyHistogram {

    /** Upper bounds (exclusive) of every bucket but the last, in milliseconds. */
    public static final List<Long> BOUNDS_MS =
            List.of(100L, 250L, 500L, 1_000L, 2_000L, 5_000L, 10_000L, 20_000L, 30_000L, 60_000L, 120_000L);

    /** Number of buckets: one per bound plus the unbounded last one. */
    public static final int BUCKETS = BOUNDS_MS.size() + 1;

    private LatencyHistogram() {}

    /** The bucket {@code latencyMs} falls in. */
    public static int bucket(long latencyMs) {
        for (int i = 0; i < BOUNDS_MS.size(); i++) {
            if (latencyMs < BOUNDS_MS.get(i)) {
                return i;
            }
        }
        return BOUNDS_MS.size();
    }

    /**
     * The {@code quantile} (0 < q ≤ 1) of the counted latencies: the upper bound of the first bucket
     * whose cumulative count reaches {@code ceil(q × total)}; null when nothing was counted or the
     * rank falls in the unbounded last bucket (more than the largest bound).
     */
    public static Long quantile(long[] counts, double quantile) {
        if (counts.length != BUCKETS) {
            throw new IllegalArgumentException("expected " + BUCKETS + " bucket counts");
        }
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be within (0, 1]");
        }
        long total = 0;
        for (long count : counts) {
            total += count;
        }
        if (total == 0) {
            return null;
        }
        long rank = (long) Math.ceil(quantile * total);
        long cumulative = 0;
        for (int i = 0; i < BOUNDS_MS.size(); i++) {
            cumulative += counts[i];
            if (cumulative >= rank) {
                return BOUNDS_MS.get(i);
            }
        }
        return null;
    }
}
