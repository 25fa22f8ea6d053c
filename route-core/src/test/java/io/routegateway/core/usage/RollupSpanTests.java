package io.routegateway.core.usage;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RollupSpanTests {

    static long ms(String at) {
        return Instant.parse(at).toEpochMilli();
    }

    @Test
    void wholeMinutesComeFromTheRollupsAlone() {
        RollupSpan span = RollupSpan.of(Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-06T00:00:00Z"));
        assertThat(span)
                .isEqualTo(new RollupSpan(true, ms("2026-12-01T00:00:00Z"), ms("2026-12-06T00:00:00Z"), null, null));
        assertThat(RollupSpan.of(null, null)).isEqualTo(new RollupSpan(true, null, null, null, null));
    }

    @Test
    void partialMinutesAtEitherEndComeFromTheRawRows() {
        RollupSpan span =
                RollupSpan.of(Instant.parse("2026-12-01T00:00:30Z"), Instant.parse("2026-12-01T01:00:00.001Z"));
        assertThat(span)
                .isEqualTo(new RollupSpan(
                        true,
                        ms("2026-12-01T00:01:00Z"),
                        ms("2026-12-01T01:00:00Z"),
                        ms("2026-12-01T00:00:30Z"),
                        ms("2026-12-01T01:00:00.001Z")));
        span = RollupSpan.of(Instant.parse("2026-12-01T00:00:00.001Z"), null);
        assertThat(span)
                .isEqualTo(
                        new RollupSpan(true, ms("2026-12-01T00:01:00Z"), null, ms("2026-12-01T00:00:00.001Z"), null));
    }

    @Test
    void aRangeWithinOneMinuteIsReadRawOnly() {
        RollupSpan span = RollupSpan.of(Instant.parse("2026-12-01T00:00:10Z"), Instant.parse("2026-12-01T00:00:50Z"));
        assertThat(span.rollups()).isFalse();
        assertThat(span.headFrom()).isEqualTo(ms("2026-12-01T00:00:10Z"));
        assertThat(span.tailTo()).isEqualTo(ms("2026-12-01T00:00:50Z"));
        // crossing one boundary without a whole minute inside
        span = RollupSpan.of(Instant.parse("2026-12-01T00:00:10Z"), Instant.parse("2026-12-01T00:01:50Z"));
        assertThat(span.rollups()).isFalse();
    }
}
