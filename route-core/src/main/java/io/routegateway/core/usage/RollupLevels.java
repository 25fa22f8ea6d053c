package io.routegateway.core.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How a usage query over {@code [from, to)} splits between the rollup levels and the raw request
 * logs: whole days come from the daily rollups, the whole hours left at either end from the hourly
 * ones, the whole minutes left from the per-minute ones, and only the partial minutes at the very
 * ends from the raw rows. The parts are disjoint and cover the range exactly, so the answer is the
 * one the minute rollups (and the raw rows, while they are kept) give, read from at most 30 + 2 × 23
 * + 2 × 59 rollup intervals and two partial minutes for a 30-day range. Bounds are epoch
 * milliseconds, UTC; null = unbounded.
 *
 * <p>A grouping finer than a level caps the split: grouped by hour, no part is read from the daily
 * level ({@code coarsest}).
 */
public final class RollupLevels {

    /** A rollup level (or the raw rows) and the length of its interval in milliseconds. */
    public enum Level {
        RAW(1L),
        MINUTE(60_000L),
        HOUR(3_600_000L),
        DAY(86_400_000L);

        private final long unitMs;

        Level(long unitMs) {
            this.unitMs = unitMs;
        }

        /** The length of one interval of this level. */
        public long unitMs() {
            return unitMs;
        }

        Level finer() {
            return values()[ordinal() - 1];
        }
    }

    /**
     * One part of a range: the rows of {@code level} whose interval starts in {@code [fromMs, toMs)}
     * (for {@link Level#RAW}, the requests that occurred in it).
     *
     * @param fromMs inclusive, null = unbounded
     * @param toMs exclusive, null = unbounded
     */
    public record Part(Level level, Long fromMs, Long toMs) {}

    private RollupLevels() {}

    /** The parts of {@code [from, to)}, oldest first, none coarser than {@code coarsest}. */
    public static List<Part> split(Instant from, Instant to, Level coarsest) {
        if (coarsest == Level.RAW) {
            throw new IllegalArgumentException("the coarsest level must be a rollup level");
        }
        Long fromMs = from == null ? null : from.toEpochMilli();
        Long toMs = to == null ? null : to.toEpochMilli();
        if (fromMs != null && toMs != null && fromMs >= toMs) {
            return List.of();
        }
        List<Part> parts = new ArrayList<>();
        split(fromMs, toMs, coarsest, parts);
        return List.copyOf(parts);
    }

    private static void split(Long fromMs, Long toMs, Level level, List<Part> parts) {
        if (level == Level.RAW) {
            parts.add(new Part(Level.RAW, fromMs, toMs));
            return;
        }
        long unit = level.unitMs();
        Long up = fromMs == null ? null : Math.floorDiv(fromMs + unit - 1, unit) * unit;
        Long down = toMs == null ? null : Math.floorDiv(toMs, unit) * unit;
        if (up != null && down != null && up >= down) {
            // no whole interval of this level inside: all of it from the finer levels
            split(fromMs, toMs, level.finer(), parts);
            return;
        }
        if (fromMs != null && !fromMs.equals(up)) {
            split(fromMs, up, level.finer(), parts);
        }
        parts.add(new Part(level, up, down));
        if (toMs != null && !toMs.equals(down)) {
            split(down, toMs, level.finer(), parts);
        }
    }
}
