package io.routegateway.core.usage;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CredentialTrafficTests {

    private static final Instant NOW = Instant.parse("2026-07-04T10:30:20Z");

    private static long[] buckets(int... counts) {
        long[] out = new long[LatencyHistogram.BUCKETS];
        for (int i = 0; i < counts.length; i++) {
            out[i] = counts[i];
        }
        return out;
    }

    private static long minute(String at) {
        return Instant.parse(at).toEpochMilli();
    }

    @Test
    void sumsEachCredentialsMinutesOfTheWindow() {
        List<CredentialTraffic.Row> rows = List.of(
                // 3 fast (50 ms), 1 at 300 ms: p50 in the first bucket, p95 in the third
                new CredentialTraffic.Row(minute("2026-07-04T10:30:00Z"), "a", 3, 1, 150, buckets(3)),
                new CredentialTraffic.Row(minute("2026-07-04T09:31:00Z"), "a", 1, 0, 300, buckets(0, 0, 1)),
                // before the hour: left out
                new CredentialTraffic.Row(minute("2026-07-04T09:30:00Z"), "a", 100, 100, 1, buckets(100)),
                new CredentialTraffic.Row(minute("2026-07-04T10:00:00Z"), "b", 2, 0, 2_400, buckets(0, 0, 0, 0, 2)),
                new CredentialTraffic.Row(minute("2026-07-04T10:00:00Z"), null, 5, 5, 0, buckets(5)));

        CredentialTraffic traffic = CredentialTraffic.of(rows, NOW, "1h");

        assertThat(traffic.from()).isEqualTo(Instant.parse("2026-07-04T09:31:00Z"));
        assertThat(traffic.to()).isEqualTo(Instant.parse("2026-07-04T10:31:00Z"));
        assertThat(traffic.credentials())
                .containsExactly(
                        new CredentialTraffic.Credential("a", 4, 1, 0.75, 112, 100L, 500L),
                        new CredentialTraffic.Credential("b", 2, 0, 1.0, 1_200, 2_000L, 2_000L));
    }

    @Test
    void aLatencyBeyondTheLargestBoundHasNoQuantileAndNoTrafficNoEntry() {
        long[] slow = new long[LatencyHistogram.BUCKETS];
        slow[LatencyHistogram.BUCKETS - 1] = 1;
        CredentialTraffic traffic = CredentialTraffic.of(
                List.of(
                        new CredentialTraffic.Row(minute("2026-07-04T10:29:00Z"), "slow", 1, 1, 130_000, slow),
                        new CredentialTraffic.Row(minute("2026-07-04T10:29:00Z"), "idle", 0, 0, 0, buckets())),
                NOW,
                "5m");
        assertThat(traffic.credentials())
                .containsExactly(new CredentialTraffic.Credential("slow", 1, 1, 0.0, 130_000, null, null));
    }

    @Test
    void anUnknownWindowIsRefused() {
        assertThatThrownBy(() -> CredentialTraffic.of(List.of(), NOW, "2h"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
