package io.routegateway.core.usage;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.usage.RollupLevels.Level;
import io.routegateway.core.usage.RollupLevels.Part;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RollupLevelsTests {

    static long ms(String at) {
        return Instant.parse(at).toEpochMilli();
    }

    static Part part(Level level, String from, String to) {
        return new Part(level, from == null ? null : ms(from), to == null ? null : ms(to));
    }

    @Test
    void wholeDaysComeFromTheDailyLevelAlone() {
        assertThat(RollupLevels.split(
                        Instant.parse("2026-11-06T00:00:00Z"), Instant.parse("2026-12-06T00:00:00Z"), Level.DAY))
                .containsExactly(part(Level.DAY, "2026-11-06T00:00:00Z", "2026-12-06T00:00:00Z"));
        assertThat(RollupLevels.split(null, null, Level.DAY)).containsExactly(new Part(Level.DAY, null, null));
    }

    @Test
    void raggedEdgesComeFromHoursThenMinutesThenRawRows() {
        assertThat(RollupLevels.split(
                        Instant.parse("2026-11-06T12:34:56.789Z"),
                        Instant.parse("2026-12-06T12:34:00.001Z"),
                        Level.DAY))
                .containsExactly(
                        part(Level.RAW, "2026-11-06T12:34:56.789Z", "2026-11-06T12:35:00Z"),
                        part(Level.MINUTE, "2026-11-06T12:35:00Z", "2026-11-06T13:00:00Z"),
                        part(Level.HOUR, "2026-11-06T13:00:00Z", "2026-11-07T00:00:00Z"),
                        part(Level.DAY, "2026-11-07T00:00:00Z", "2026-12-06T00:00:00Z"),
                        part(Level.HOUR, "2026-12-06T00:00:00Z", "2026-12-06T12:00:00Z"),
                        part(Level.MINUTE, "2026-12-06T12:00:00Z", "2026-12-06T12:34:00Z"),
                        part(Level.RAW, "2026-12-06T12:34:00Z", "2026-12-06T12:34:00.001Z"));
    }

    @Test
    void anOpenEndIsReadAtTheCoarsestLevel() {
        assertThat(RollupLevels.split(Instant.parse("2026-12-01T23:59:30Z"), null, Level.DAY))
                .containsExactly(
                        part(Level.RAW, "2026-12-01T23:59:30Z", "2026-12-02T00:00:00Z"),
                        part(Level.DAY, "2026-12-02T00:00:00Z", null));
        assertThat(RollupLevels.split(null, Instant.parse("2026-12-01T00:01:00Z"), Level.DAY))
                .containsExactly(
                        part(Level.DAY, null, "2026-12-01T00:00:00Z"),
                        part(Level.MINUTE, "2026-12-01T00:00:00Z", "2026-12-01T00:01:00Z"));
    }

    @Test
    void aGroupingByHourNeverReadsTheDailyLevel() {
        assertThat(RollupLevels.split(
                        Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-03T00:30:00Z"), Level.HOUR))
                .containsExactly(
                        part(Level.HOUR, "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z"),
                        part(Level.MINUTE, "2026-12-03T00:00:00Z", "2026-12-03T00:30:00Z"));
        assertThat(RollupLevels.split(null, null, Level.MINUTE)).containsExactly(new Part(Level.MINUTE, null, null));
        assertThatThrownBy(() -> RollupLevels.split(null, null, Level.RAW))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRangeWithinOneIntervalDescendsToTheFinerLevels() {
        assertThat(RollupLevels.split(
                        Instant.parse("2026-12-01T00:00:10Z"), Instant.parse("2026-12-01T00:00:50Z"), Level.DAY))
                .containsExactly(part(Level.RAW, "2026-12-01T00:00:10Z", "2026-12-01T00:00:50Z"));
        assertThat(RollupLevels.split(
                        Instant.parse("2026-12-01T22:10:00Z"), Instant.parse("2026-12-02T01:00:00Z"), Level.DAY))
                .containsExactly(
                        part(Level.MINUTE, "2026-12-01T22:10:00Z", "2026-12-01T23:00:00Z"),
                        part(Level.HOUR, "2026-12-01T23:00:00Z", "2026-12-02T01:00:00Z"));
        assertThat(RollupLevels.split(
                        Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-01T00:00:00Z"), Level.DAY))
                .isEmpty();
    }

    /** The parts are contiguous, cover [from, to) exactly, each aligned to its level and the edges small. */
    @Property(tries = 2000)
    void thePartsTileTheRangeAlignedToTheirLevels(
            @ForAll @LongRange(min = 1_700_000_000_000L, max = 1_800_000_000_000L) long from,
            @ForAll @LongRange(min = 1, max = 40L * 86_400_000L) long length,
            @ForAll Level coarsest) {
        if (coarsest == Level.RAW) {
            return;
        }
        long to = from + length;
        List<Part> parts = RollupLevels.split(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to), coarsest);
        long at = from;
        for (Part part : parts) {
            assertThat(part.fromMs()).isEqualTo(at);
            assertThat(part.toMs()).isGreaterThan(part.fromMs());
            assertThat(part.level().compareTo(coarsest)).isLessThanOrEqualTo(0);
            if (part.level() != Level.RAW) {
                assertThat(Math.floorMod(part.fromMs(), part.level().unitMs())).isZero();
                assertThat(Math.floorMod(part.toMs(), part.level().unitMs())).isZero();
            }
            at = part.toMs();
        }
        assertThat(at).isEqualTo(to);
        // at most one part per level at each end, plus the middle one; the parts of a finer level
        // (raw rows included) cover less than two intervals of the level above it
        assertThat(parts.size()).isLessThanOrEqualTo(2 * coarsest.ordinal() + 1);
        for (Level level : Level.values()) {
            if (level.compareTo(coarsest) < 0) {
                long covered = parts.stream()
                        .filter(p -> p.level() == level)
                        .mapToLong(p -> p.toMs() - p.fromMs())
                        .sum();
                long finerThanNext = Level.values()[level.ordinal() + 1].unitMs();
                assertThat(covered).isLessThan(2 * finerThanNext);
            }
        }
    }
}
