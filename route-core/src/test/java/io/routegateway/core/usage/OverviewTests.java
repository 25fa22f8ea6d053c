package io.routegateway.core.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OverviewTests {

    private static final Instant NOW = Instant.parse("2026-07-01T12:10:30Z");

    private static Overview.Row row(
            Instant minute, String model, String key, long requests, long failures, long latencyMs) {
        long[] buckets = new long[LatencyHistogram.BUCKETS];
        buckets[LatencyHistogram.bucket(latencyMs)] = requests;
        return new Overview.Row(
                minute.toEpochMilli(),
                model,
                key,
                requests,
                failures,
                10 * requests,
                5 * requests,
                100 * requests,
                requests,
                buckets);
    }

    @Test
    void theWindowEndsWithTheCurrentMinuteAndEveryMinuteIsListed() {
        Overview overview = Overview.of(List.of(), 0, NOW, Duration.ofMinutes(15));
        assertThat(overview.to()).isEqualTo(Instant.parse("2026-07-01T12:11:00Z"));
        assertThat(overview.from()).isEqualTo(Instant.parse("2026-07-01T11:56:00Z"));
        assertThat(overview.minutes())
                .hasSize(15)
                .allSatisfy(m -> assertThat(m.requests()).isZero());
        assertThat(overview.successRate()).as("no traffic, no rate").isNull();
        assertThat(overview.p50LatencyMs()).isNull();
        assertThat(overview.meanTtftMs()).isNull();
    }

    @Test
    void totalsRatesQuantilesAndTopsComeFromTheRows() {
        Instant current = Instant.parse("2026-07-01T12:10:00Z");
        Instant earlier = Instant.parse("2026-07-01T12:05:00Z");
        List<Overview.Row> rows = new ArrayList<>();
        rows.add(row(current, "big", "k1", 90, 0, 150)); // 100..250 bucket → 250
        rows.add(row(earlier, "small", "k2", 10, 10, 3000)); // 2000..5000 bucket → 5000
        rows.add(row(Instant.parse("2026-07-01T11:00:00Z"), "old", "k3", 1000, 0, 50)); // outside the window
        Overview overview = Overview.of(rows, 4, NOW, Duration.ofMinutes(15));

        assertThat(overview.requests()).isEqualTo(100);
        assertThat(overview.failures()).isEqualTo(10);
        assertThat(overview.successRate()).isEqualTo(0.9);
        assertThat(overview.requestsPerMinute()).isEqualTo(100 / 15.0);
        assertThat(overview.tokensPerMinute()).isEqualTo(1500 / 15.0);
        assertThat(overview.p50LatencyMs()).isEqualTo(250);
        assertThat(overview.p95LatencyMs()).isEqualTo(5000);
        assertThat(overview.meanTtftMs()).isEqualTo(100);
        assertThat(overview.failovers()).isEqualTo(4);
        assertThat(overview.minutes().get(14).requests()).isEqualTo(90);
        assertThat(overview.minutes().get(9).failures()).isEqualTo(10);
        assertThat(overview.topModels()).extracting(Overview.Top::key).containsExactly("big", "small");
        assertThat(overview.topKeys().get(0)).isEqualTo(new Overview.Top("k1", 90, 1350, 0));
    }

    @Test
    void theTopsAreBounded() {
        Instant current = Instant.parse("2026-07-01T12:10:00Z");
        List<Overview.Row> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(row(current, "m" + i, "k" + i, i + 1, 0, 10));
        }
        Overview overview = Overview.of(rows, 0, NOW, Duration.ofMinutes(5));
        assertThat(overview.topModels())
                .hasSize(Overview.TOP)
                .first()
                .extracting(Overview.Top::key)
                .isEqualTo("m19");
        assertThat(overview.minutes()).hasSize(5);
    }
}
