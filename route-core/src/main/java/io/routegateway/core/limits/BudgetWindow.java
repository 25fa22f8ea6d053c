package io.routegateway.core.limits;

import java.time.Instant;
import java.time.ZoneId;

/**
 * The budget window holding an instant: {@code [start, end)} of a {@link BudgetDuration} in the
 * configured zone, or the lifetime window ({@link Instant#EPOCH}, no end) when the budget never
 * resets — the {@code window_start}/{@code window_end} of {@code spend.v1}.
 *
 * @param end exclusive; null for a lifetime budget
 */
public record BudgetWindow(Instant start, Instant end) {

    public static final BudgetWindow LIFETIME = new BudgetWindow(Instant.EPOCH, null);

    /**
     * The last window computed per duration, so the calendar arithmetic runs once per window, not
     * per request. A slot holds one immutable pair, so racing threads read a consistent one (at
     * worst they compute the same window twice).
     */
    private static final Cached[] CACHE = new Cached[BudgetDuration.values().length];

    /** The window of {@code duration} (null = lifetime) holding {@code now} in {@code zone}. */
    public static BudgetWindow of(BudgetDuration duration, Instant now, ZoneId zone) {
        if (duration == null) {
            return LIFETIME;
        }
        int slot = duration.ordinal();
        Cached cached = CACHE[slot];
        if (cached != null && cached.zone.equals(zone) && cached.window.contains(now)) {
            return cached.window;
        }
        BudgetWindow window = new BudgetWindow(duration.windowStart(now, zone), duration.windowEnd(now, zone));
        CACHE[slot] = new Cached(zone, window);
        return window;
    }

    /** Whether {@code instant} is in this window. */
    public boolean contains(Instant instant) {
        return !instant.isBefore(start) && (end == null || instant.isBefore(end));
    }

    private record Cached(ZoneId zone, BudgetWindow window) {}
}
