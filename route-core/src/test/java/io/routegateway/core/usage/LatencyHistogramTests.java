package io.routegateway.core.usage;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyHistogramTests {

    @Test
    void aBoundBelongsToTheBucketAboveIt() {
        assertThat(LatencyHistogram.bucket(0)).isZero();
        assertThat(LatencyHistogram.bucket(99)).isZero();
        assertThat(LatencyHistogram.bucket(100)).isEqualTo(1);
        assertThat(LatencyHistogram.bucket(119_999)).isEqualTo(10);
        assertThat(LatencyHistogram.bucket(120_000)).isEqualTo(11);
        assertThat(LatencyHistogram.bucket(-5)).isZero();
        assertThat(LatencyHistogram.BUCKETS).isEqualTo(12);
    }

    @Test
    void quantilesAreTheUpperBoundOfTheBucketReachingTheRank() {
        long[] counts = new long[LatencyHistogram.BUCKETS];
        counts[0] = 50; // < 100 ms
        counts[3] = 45; // 500..1000 ms
        counts[5] = 4; // 2000..5000 ms
        counts[11] = 1; // ≥ 120 s
        assertThat(LatencyHistogram.quantile(counts, 0.50)).isEqualTo(100L);
        assertThat(LatencyHistogram.quantile(counts, 0.51)).isEqualTo(1_000L);
        assertThat(LatencyHistogram.quantile(counts, 0.95)).isEqualTo(1_000L);
        assertThat(LatencyHistogram.quantile(counts, 0.99)).isEqualTo(5_000L);
        assertThat(LatencyHistogram.quantile(counts, 1.0)).isNull();
    }

    @Test
    void nothingCountedHasNoQuantile() {
        assertThat(LatencyHistogram.quantile(new long[LatencyHistogram.BUCKETS], 0.5))
                .isNull();
    }

    @Test
    void refusesAWrongShapeOrQuantile() {
        assertThatThrownBy(() -> LatencyHistogram.quantile(new long[3], 0.5))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LatencyHistogram.quantile(new long[LatencyHistogram.BUCKETS], 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LatencyHistogram.quantile(new long[LatencyHistogram.BUCKETS], Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
