package io.routegateway.core.limits;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How long a budget window lasts, with LiteLLM's spellings. Windows are calendar windows in the
 * configured time zone ({@code route.default-time-zone}), so every replica and every reader agrees
 * on when one starts and ends without any stored "last reset" time:
 *
 * <ul>
 *   <li>{@code 1h}: the clock hour; {@code 1d}: the calendar day;
 *   <li>{@code 7d}: the ISO week, Monday 00:00 to the next Monday 00:00;
 *   <li>{@code 30d}: consecutive 30-day windows counted from Monday 1970-01-05 (a fixed grid, not a
 *       month);
 *   <li>{@code 1mo}: the calendar month.
 * </ul>
 */
public enum BudgetDuration {
    HOUR("1h"),
    DAY("1d"),
    WEEK("7d"),
    THIRTY_DAYS("30d"),
    MONTH("1mo");

    private static final LocalDate THIRTY_DAY_ORIGIN = LocalDate.of(1970, 1, 5);

    private final String wire;

    BudgetDuration(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The duration spelled {@code text}, or null when it is none of the five. */
    @JsonCreator
    public static BudgetDuration fromWire(String text) {
        for (BudgetDuration duration : values()) {
            if (duration.wire.equals(text)) {
                return duration;
            }
        }
        return null;
    }

    /** The start of the window holding {@code now}, in {@code zone}. */
    public Instant windowStart(Instant now, ZoneId zone) {
        ZonedDateTime local = now.atZone(zone);
        ZonedDateTime start = switch (this) {
            case HOUR -> local.truncatedTo(ChronoUnit.HOURS);
            case DAY -> local.toLocalDate().atStartOfDay(zone);
            case WEEK ->
                local.toLocalDate()
                        .with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
                        .atStartOfDay(zone);
            case THIRTY_DAYS -> {
                long days = ChronoUnit.DAYS.between(THIRTY_DAY_ORIGIN, local.toLocalDate());
                yield THIRTY_DAY_ORIGIN.plusDays(Math.floorDiv(days, 30) * 30).atStartOfDay(zone);
            }
            case MONTH -> local.toLocalDate().withDayOfMonth(1).atStartOfDay(zone);
        };
        return start.toInstant();
    }

    /** The end of the window holding {@code now} (exclusive): when its budget resets. */
    public Instant windowEnd(Instant now, ZoneId zone) {
        ZonedDateTime start = windowStart(now, zone).atZone(zone);
        ZonedDateTime end = switch (this) {
            case HOUR -> start.plusHours(1);
            case DAY -> start.toLocalDate().plusDays(1).atStartOfDay(zone);
            case WEEK -> start.toLocalDate().plusWeeks(1).atStartOfDay(zone);
            case THIRTY_DAYS -> start.toLocalDate().plusDays(30).atStartOfDay(zone);
            case MONTH -> start.toLocalDate().plusMonths(1).atStartOfDay(zone);
        };
        return end.toInstant();
    }
}
