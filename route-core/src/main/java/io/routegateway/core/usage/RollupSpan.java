package io.routegateway.core.usage;

import java.time.Instant;

/**
 * How a usage query over {@code [from, to)} splits between the per-minute rollups and the raw
 * request logs: whole minutes come from the rollups, the partial minutes at either end from the raw
 * rows, so a range that does not fall on minute boundaries gives exactly what the raw rows give.
 * Bounds are epoch milliseconds; null = unbounded.
 *
 * @param rollupFrom inclusive start of the rollup part (a minute boundary), null = unbounded
 * @param rollupTo exclusive end of the rollup part (a minute boundary), null = unbounded
 * @param rollups false when the range lies within one minute: raw rows only
 * @param headFrom raw rows {@code [headFrom, rollupFrom)}; null = no head part
 * @param tailTo raw rows {@code [rollupTo, tailTo)}; null = no tail part
 */
public record RollupSpan(boolean rollups, Long rollupFrom, Long rollupTo, Long headFrom, Long tailTo) {

    /** The rollup resolution. */
    public static final long MINUTE_MS = 60_000L;

    /** The split of {@code [from, to)}. */
    public static RollupSpan of(Instant from, Instant to) {
        Long fromMs = from == null ? null : from.toEpochMilli();
        Long toMs = to == null ? null : to.toEpochMilli();
        Long up = fromMs == null ? null : Math.floorDiv(fromMs + MINUTE_MS - 1, MINUTE_MS) * MINUTE_MS;
        Long down = toMs == null ? null : Math.floorDiv(toMs, MINUTE_MS) * MINUTE_MS;
        if (up != null && down != null && up >= down) {
            // no whole minute inside: the raw rows of [from, to) alone
            return new RollupSpan(false, null, null, fromMs, toMs);
        }
        Long head = fromMs != null && !fromMs.equals(up) ? fromMs : null;
        Long tail = toMs != null && !toMs.equals(down) ? toMs : null;
        return new RollupSpan(true, up, down, head, tail);
    }
}
