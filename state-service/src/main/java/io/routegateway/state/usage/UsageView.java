package io.routegateway.state.usage;

import java.util.List;

import io.routegateway.core.usage.LatencyHistogram;

/**
 * Usage totals grouped one way.
 *
 * @param groupBy {@code access_key}, {@code team}, {@code credential}, {@code group}, {@code model}
 *     (the model key, else the requested name), {@code reason_code} (null: succeeded; the refusals of
 *     limits show as {@code rate_limit_exceeded}, {@code concurrency_limit_exceeded}, {@code
 *     budget_exceeded}, {@code limits_unavailable}) or {@code day} (UTC, {@code YYYY-MM-DD})
 * @param rows one per key, ordered by key; a null key collects requests without one (e.g. refused
 *     before a credential was chosen)
 */
public record UsageView(String groupBy, List<Row> rows, Row total) {

    /**
     * @param failures requests with {@code success = false}, semantic failures included
     * @param probes recovery probes and model tests among the requests
     * @param costMicros micro-USD over the priced requests; requests without a price add nothing
     * @param latencyP50Ms the median latency, read from the rollups' fixed buckets (route-core
     *     usage/LatencyHistogram): the upper bound of the bucket it falls in; null without requests or
     *     above the largest bucket bound
     * @param latencyP95Ms the 95th percentile, likewise
     * @param latencyP99Ms the 99th percentile, likewise
     */
    public record Row(
            String key,
            long requests,
            long failures,
            long probes,
            long inputTokens,
            long outputTokens,
            long costMicros,
            Long latencyP50Ms,
            Long latencyP95Ms,
            Long latencyP99Ms) {

        /** A row with its percentiles read from the latency bucket counts. */
        public static Row of(
                String key,
                long requests,
                long failures,
                long probes,
                long inputTokens,
                long outputTokens,
                long costMicros,
                long[] latencyBuckets) {
            return new Row(
                    key,
                    requests,
                    failures,
                    probes,
                    inputTokens,
                    outputTokens,
                    costMicros,
                    LatencyHistogram.quantile(latencyBuckets, 0.50),
                    LatencyHistogram.quantile(latencyBuckets, 0.95),
                    LatencyHistogram.quantile(latencyBuckets, 0.99));
        }
    }
}
