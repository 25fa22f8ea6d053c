package io.routegateway.core.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Client traffic per credential over a recent window (the credentials list's success rate and
 * latency columns): requests, failures, the success rate, the mean latency and p50/p95 read from
 * the per-minute latency histograms ({@link LatencyHistogram}: each quantile is its bucket's upper
 * bound). A request counts for the credential its usage record names (the one that answered last);
 * the attempts that failed over before it are in the attempt chain, not here. Probes are left out.
 * Pure: the rows and the current time are given.
 *
 * @param from the first minute of the window (inclusive)
 * @param to the end of the current minute (exclusive)
 * @param credentials one entry per credential with traffic in the window, by credential id
 */
public record CredentialTraffic(Instant from, Instant to, String window, List<Credential> credentials) {

    /** The window the credentials list shows. */
    public static final String DEFAULT_WINDOW = "1h";

    /**
     * One credential's traffic in the window.
     *
     * @param successRate successful requests / requests (never null: a credential is listed only with requests)
     * @param meanLatencyMs the latency sum / requests, rounded down
     * @param p50LatencyMs null beyond the histogram's largest bound
     * @param p95LatencyMs as above
     */
    public record Credential(
            String credentialId,
            long requests,
            long failures,
            double successRate,
            long meanLatencyMs,
            Long p50LatencyMs,
            Long p95LatencyMs) {}

    /**
     * The summed rollups of one credential and minute.
     *
     * @param latencyBuckets {@link LatencyHistogram#BUCKETS} counts
     */
    public record Row(
            long minuteEpochMs,
            String credentialId,
            long requests,
            long failures,
            long latencyMsSum,
            long[] latencyBuckets) {}

    public static CredentialTraffic of(List<Row> rows, Instant now, String window) {
        Duration span = Overview.WINDOWS.get(window);
        if (span == null) {
            throw new IllegalArgumentException("unknown window " + window);
        }
        Instant[] range = Overview.range(now, span);
        long fromMs = range[0].toEpochMilli();
        long toMs = range[1].toEpochMilli();
        Map<String, long[]> sums = new TreeMap<>();
        for (Row row : rows) {
            if (row.credentialId() == null || row.minuteEpochMs() < fromMs || row.minuteEpochMs() >= toMs) {
                continue;
            }
            long[] sum = sums.computeIfAbsent(row.credentialId(), id -> new long[3 + LatencyHistogram.BUCKETS]);
            sum[0] += row.requests();
            sum[1] += row.failures();
            sum[2] += row.latencyMsSum();
            for (int i = 0; i < LatencyHistogram.BUCKETS && i < row.latencyBuckets().length; i++) {
                sum[3 + i] += row.latencyBuckets()[i];
            }
        }
        List<Credential> credentials = sums.entrySet().stream()
                .filter(e -> e.getValue()[0] > 0)
                .map(e -> {
                    long[] sum = e.getValue();
                    long[] buckets = java.util.Arrays.copyOfRange(sum, 3, sum.length);
                    long requests = sum[0];
                    long failures = Math.min(requests, Math.max(0, sum[1]));
                    return new Credential(
                            e.getKey(),
                            requests,
                            failures,
                            (double) (requests - failures) / requests,
                            sum[2] / requests,
                            LatencyHistogram.quantile(buckets, 0.5),
                            LatencyHistogram.quantile(buckets, 0.95));
                })
                .sorted(Comparator.comparing(Credential::credentialId))
                .toList();
        return new CredentialTraffic(range[0], range[1], window, credentials);
    }
}
