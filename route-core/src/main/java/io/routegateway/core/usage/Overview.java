package io.routegateway.core.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The console's landing numbers for the last few minutes of client traffic (probes left out): per
 * minute requests, tokens and failures, the success rate, the requests that failed over, latency
 * p50/p95 from the per-minute latency histograms ({@link LatencyHistogram}: each quantile is its
 * bucket's upper bound), the mean time to first byte, and the busiest model keys and access keys.
 * Pure: the rows and the current time are given.
 *
 * @param from the first minute of the window (inclusive)
 * @param to the end of the current minute (exclusive)
 * @param minutes one entry per minute of the window, oldest first, minutes without traffic as zeros
 * @param successRate successful requests / requests, null without requests
 * @param requestsPerMinute requests / minutes of the window
 * @param tokensPerMinute input and output tokens / minutes of the window
 * @param p50LatencyMs null without requests or beyond the histogram's largest bound
 * @param p95LatencyMs as above
 * @param meanTtftMs the mean time to first byte of the requests that sent one, null when none did
 * @param failovers requests that failed over to another credential at least once
 */
public record Overview(
        Instant from,
        Instant to,
        List<Minute> minutes,
        long requests,
        long failures,
        long inputTokens,
        long outputTokens,
        Double successRate,
        double requestsPerMinute,
        double tokensPerMinute,
        Long p50LatencyMs,
        Long p95LatencyMs,
        Long meanTtftMs,
        long failovers,
        List<Top> topModels,
        List<Top> topKeys) {

    /** Windows the overview accepts, by their wire name. */
    public static final Map<String, Duration> WINDOWS = Map.of(
            "5m", Duration.ofMinutes(5),
            "15m", Duration.ofMinutes(15),
            "1h", Duration.ofHours(1),
            "6h", Duration.ofHours(6),
            "24h", Duration.ofHours(24));

    public static final String DEFAULT_WINDOW = "15m";

    /** How many model keys and access keys the overview ranks. */
    public static final int TOP = 5;

    /** One minute of the window. */
    public record Minute(Instant at, long requests, long tokens, long failures) {}

    /** A model key or access key and its traffic in the window; {@code key} null = none recorded. */
    public record Top(String key, long requests, long tokens, long failures) {}

    /**
     * One row of per-minute totals (the rollups of one minute, model key and access key).
     *
     * @param latencyBuckets {@link LatencyHistogram#BUCKETS} counts
     */
    public record Row(
            long minuteEpochMs,
            String modelKey,
            String accessKeyId,
            long requests,
            long failures,
            long inputTokens,
            long outputTokens,
            long ttftMsSum,
            long ttftCount,
            long[] latencyBuckets) {}

    /** The minutes {@code [from, to)} the window covers at {@code now}: whole minutes, the current one last. */
    public static Instant[] range(Instant now, Duration window) {
        long minute = 60_000;
        long end = Math.floorDiv(now.toEpochMilli(), minute) * minute + minute;
        long minutes = Math.max(1, window.toMinutes());
        return new Instant[] {Instant.ofEpochMilli(end - minutes * minute), Instant.ofEpochMilli(end)};
    }

    public static Overview of(List<Row> rows, long failovers, Instant now, Duration window) {
        Instant[] range = range(now, window);
        long fromMs = range[0].toEpochMilli();
        int count = (int) ((range[1].toEpochMilli() - fromMs) / 60_000);
        long[] requestsAt = new long[count];
        long[] tokensAt = new long[count];
        long[] failuresAt = new long[count];
        long[] buckets = new long[LatencyHistogram.BUCKETS];
        long requests = 0;
        long failures = 0;
        long input = 0;
        long output = 0;
        long ttftSum = 0;
        long ttftCount = 0;
        Map<String, long[]> models = new HashMap<>();
        Map<String, long[]> keys = new HashMap<>();
        for (Row row : rows) {
            int slot = (int) Math.floorDiv(row.minuteEpochMs() - fromMs, 60_000L);
            if (slot < 0 || slot >= count) {
                continue;
            }
            long tokens = row.inputTokens() + row.outputTokens();
            requestsAt[slot] += row.requests();
            tokensAt[slot] += tokens;
            failuresAt[slot] += row.failures();
            requests += row.requests();
            failures += row.failures();
            input += row.inputTokens();
            output += row.outputTokens();
            ttftSum += row.ttftMsSum();
            ttftCount += row.ttftCount();
            for (int i = 0; i < buckets.length && i < row.latencyBuckets().length; i++) {
                buckets[i] += row.latencyBuckets()[i];
            }
            add(models, row.modelKey(), row, tokens);
            add(keys, row.accessKeyId(), row, tokens);
        }
        List<Minute> minutes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            minutes.add(
                    new Minute(Instant.ofEpochMilli(fromMs + i * 60_000L), requestsAt[i], tokensAt[i], failuresAt[i]));
        }
        boolean any = requests > 0;
        return new Overview(
                range[0],
                range[1],
                List.copyOf(minutes),
                requests,
                failures,
                input,
                output,
                any ? (double) (requests - failures) / requests : null,
                (double) requests / count,
                (double) (input + output) / count,
                any ? LatencyHistogram.quantile(buckets, 0.5) : null,
                any ? LatencyHistogram.quantile(buckets, 0.95) : null,
                ttftCount == 0 ? null : ttftSum / ttftCount,
                Math.max(0, failovers),
                top(models),
                top(keys));
    }

    private static void add(Map<String, long[]> totals, String key, Row row, long tokens) {
        long[] sums = totals.computeIfAbsent(key, k -> new long[3]);
        sums[0] += row.requests();
        sums[1] += tokens;
        sums[2] += row.failures();
    }

    private static List<Top> top(Map<String, long[]> totals) {
        Function<Top, String> name = t -> t.key() == null ? "" : t.key();
        return totals.entrySet().stream()
                .map(e -> new Top(e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2]))
                .sorted(Comparator.comparingLong(Top::requests)
                        .reversed()
                        .thenComparing(Comparator.comparingLong(Top::tokens).reversed())
                        .thenComparing(name))
                .limit(TOP)
                .toList();
    }
}
