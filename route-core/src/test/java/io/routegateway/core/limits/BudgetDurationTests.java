package io.routegateway.core.limits;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.util.List;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class BudgetDurationTests {

    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    static final List<ZoneId> ZONES = List.of(
            ZoneOffset.UTC,
            BERLIN,
            NEW_YORK,
            ZoneId.of("America/Santiago"),
            ZoneId.of("Australia/Lord_Howe"),
            ZoneId.of("Asia/Kolkata"),
            ZoneId.of("Pacific/Chatham"));

    static Instant utc(String text) {
        return Instant.parse(text);
    }

    static Instant local(String localDateTime, ZoneId zone) {
        return LocalDateTime.parse(localDateTime).atZone(zone).toInstant();
    }

    @Test
    void theWireSpellingsAreLiteLlms() {
        assertThat(BudgetDuration.fromWire("1h")).isEqualTo(BudgetDuration.HOUR);
        assertThat(BudgetDuration.fromWire("1d")).isEqualTo(BudgetDuration.DAY);
        assertThat(BudgetDuration.fromWire("7d")).isEqualTo(BudgetDuration.WEEK);
        assertThat(BudgetDuration.fromWire("30d")).isEqualTo(BudgetDuration.THIRTY_DAYS);
        assertThat(BudgetDuration.fromWire("1mo")).isEqualTo(BudgetDuration.MONTH);
        assertThat(BudgetDuration.fromWire("1M")).isNull();
        assertThat(BudgetDuration.fromWire(null)).isNull();
        for (BudgetDuration duration : BudgetDuration.values()) {
            assertThat(BudgetDuration.fromWire(duration.wire())).isEqualTo(duration);
        }
    }

    @Test
    void aDayWhoseClocksSpringForwardLasts23Hours() {
        Instant noon = local("2026-03-29T12:00", BERLIN);
        assertThat(BudgetDuration.DAY.windowStart(noon, BERLIN)).isEqualTo(utc("2026-03-28T23:00:00Z"));
        assertThat(BudgetDuration.DAY.windowEnd(noon, BERLIN)).isEqualTo(utc("2026-03-29T22:00:00Z"));
    }

    @Test
    void aDayWhoseClocksFallBackLasts25Hours() {
        Instant noon = local("2026-10-25T12:00", BERLIN);
        Instant start = BudgetDuration.DAY.windowStart(noon, BERLIN);
        Instant end = BudgetDuration.DAY.windowEnd(noon, BERLIN);
        assertThat(start).isEqualTo(utc("2026-10-24T22:00:00Z"));
        assertThat(end).isEqualTo(utc("2026-10-25T23:00:00Z"));
        assertThat(Duration.between(start, end)).isEqualTo(Duration.ofHours(25));
    }

    @Test
    void theRepeatedHourAtFallBackIsTwoWindows() {
        // 02:30 happens twice in Berlin on 2026-10-25: at 00:30Z (CEST) and 01:30Z (CET).
        assertThat(BudgetDuration.HOUR.windowStart(utc("2026-10-25T00:30:00Z"), BERLIN))
                .isEqualTo(utc("2026-10-25T00:00:00Z"));
        assertThat(BudgetDuration.HOUR.windowEnd(utc("2026-10-25T00:30:00Z"), BERLIN))
                .isEqualTo(utc("2026-10-25T01:00:00Z"));
        assertThat(BudgetDuration.HOUR.windowStart(utc("2026-10-25T01:30:00Z"), BERLIN))
                .isEqualTo(utc("2026-10-25T01:00:00Z"));
        assertThat(BudgetDuration.HOUR.windowEnd(utc("2026-10-25T01:30:00Z"), BERLIN))
                .isEqualTo(utc("2026-10-25T02:00:00Z"));
    }

    @Test
    void theSkippedHourAtSpringForwardLeavesNoGap() {
        // 01:59 CET (00:59Z) is followed by 03:00 CEST (01:00Z).
        assertThat(BudgetDuration.HOUR.windowEnd(utc("2026-03-29T00:59:00Z"), BERLIN))
                .isEqualTo(utc("2026-03-29T01:00:00Z"));
        assertThat(BudgetDuration.HOUR.windowStart(utc("2026-03-29T01:00:00Z"), BERLIN))
                .isEqualTo(utc("2026-03-29T01:00:00Z"));
    }

    @Test
    void aDayStartingInAGapAtMidnightStartsAtTheFirstValidTime() {
        ZoneId santiago = ZoneId.of("America/Santiago");
        ZoneOffsetTransition transition = santiago.getRules().nextTransition(utc("2026-08-01T00:00:00Z"));
        assumeTrue(transition != null
                && transition.isGap()
                && transition.getDateTimeBefore().toLocalTime().equals(LocalTime.MIDNIGHT));
        Instant noon = transition
                .getDateTimeAfter()
                .toLocalDate()
                .atTime(12, 0)
                .atZone(santiago)
                .toInstant();
        assertThat(BudgetDuration.DAY.windowStart(noon, santiago)).isEqualTo(transition.getInstant());
        assertThat(BudgetDuration.DAY.windowEnd(
                        BudgetDuration.DAY.windowStart(noon, santiago).minusMillis(1), santiago))
                .isEqualTo(transition.getInstant());
    }

    @Test
    void aWeekRunsMondayToMondayAcrossTheChange() {
        Instant sunday = local("2026-03-29T10:00", BERLIN);
        assertThat(BudgetDuration.WEEK.windowStart(sunday, BERLIN)).isEqualTo(local("2026-03-23T00:00", BERLIN));
        assertThat(BudgetDuration.WEEK.windowEnd(sunday, BERLIN)).isEqualTo(local("2026-03-30T00:00", BERLIN));
        assertThat(Duration.between(
                        BudgetDuration.WEEK.windowStart(sunday, BERLIN), BudgetDuration.WEEK.windowEnd(sunday, BERLIN)))
                .isEqualTo(Duration.ofHours(167));
        Instant monday = local("2026-03-30T00:00", BERLIN);
        assertThat(BudgetDuration.WEEK.windowStart(monday, BERLIN)).isEqualTo(monday);
    }

    @Test
    void monthsEndOnTheirLastDayWhateverItsNumber() {
        assertThat(BudgetDuration.MONTH.windowEnd(local("2026-01-31T23:59:59", NEW_YORK), NEW_YORK))
                .isEqualTo(local("2026-02-01T00:00", NEW_YORK));
        assertThat(BudgetDuration.MONTH.windowEnd(local("2026-02-15T00:00", NEW_YORK), NEW_YORK))
                .isEqualTo(local("2026-03-01T00:00", NEW_YORK));
        assertThat(BudgetDuration.MONTH.windowEnd(local("2028-02-29T12:00", NEW_YORK), NEW_YORK))
                .isEqualTo(local("2028-03-01T00:00", NEW_YORK));
        assertThat(BudgetDuration.MONTH.windowStart(local("2026-12-31T23:00", NEW_YORK), NEW_YORK))
                .isEqualTo(local("2026-12-01T00:00", NEW_YORK));
        assertThat(BudgetDuration.MONTH.windowEnd(local("2026-12-31T23:00", NEW_YORK), NEW_YORK))
                .isEqualTo(local("2027-01-01T00:00", NEW_YORK));
    }

    @Test
    void aMonthIsTheZonesMonthNotUtcs() {
        // 2026-02-28T23:30Z is already March 1st in Berlin.
        Instant instant = utc("2026-02-28T23:30:00Z");
        assertThat(BudgetDuration.MONTH.windowStart(instant, BERLIN)).isEqualTo(utc("2026-02-28T23:00:00Z"));
        assertThat(BudgetDuration.MONTH.windowStart(instant, ZoneOffset.UTC)).isEqualTo(utc("2026-02-01T00:00:00Z"));
        // March in Berlin spans the change to summer time: 31 days minus an hour.
        assertThat(Duration.between(
                        BudgetDuration.MONTH.windowStart(instant, BERLIN),
                        BudgetDuration.MONTH.windowEnd(instant, BERLIN)))
                .isEqualTo(Duration.ofDays(31).minusHours(1));
    }

    @Test
    void theEndIsExclusive() {
        Instant end = local("2026-04-01T00:00", BERLIN);
        assertThat(BudgetDuration.MONTH.windowStart(end, BERLIN)).isEqualTo(end);
        assertThat(BudgetDuration.MONTH.windowEnd(end.minusNanos(1), BERLIN)).isEqualTo(end);
    }

    @Test
    void thirtyDayWindowsAreAFixedGridFromMonday19700105() {
        ZoneId utc = ZoneOffset.UTC;
        assertThat(BudgetDuration.THIRTY_DAYS.windowStart(utc("1970-01-05T00:00:00Z"), utc))
                .isEqualTo(utc("1970-01-05T00:00:00Z"));
        assertThat(BudgetDuration.THIRTY_DAYS.windowEnd(utc("1970-01-05T00:00:00Z"), utc))
                .isEqualTo(utc("1970-02-04T00:00:00Z"));
        assertThat(BudgetDuration.THIRTY_DAYS.windowStart(utc("1970-01-04T23:59:59Z"), utc))
                .isEqualTo(utc("1969-12-06T00:00:00Z"));
        Instant now = utc("2026-03-10T12:00:00Z");
        Instant start = BudgetDuration.THIRTY_DAYS.windowStart(now, utc);
        assertThat(Duration.between(utc("1970-01-05T00:00:00Z"), start).toDays() % 30)
                .isZero();
        assertThat(BudgetDuration.THIRTY_DAYS.windowEnd(now, utc)).isEqualTo(start.plus(Duration.ofDays(30)));
    }

    @ParameterizedTest
    @EnumSource(BudgetDuration.class)
    void windowsHoldTheirInstantAndTileTime(BudgetDuration duration) {
        for (ZoneId zone : ZONES) {
            Instant instant = utc("2026-01-01T00:00:00Z");
            for (int step = 0; step < 400; step++) {
                Instant start = duration.windowStart(instant, zone);
                Instant end = duration.windowEnd(instant, zone);
                assertThat(start).as("%s %s %s", duration, zone, instant).isBeforeOrEqualTo(instant);
                assertThat(end).as("%s %s %s", duration, zone, instant).isAfter(instant);
                assertThat(duration.windowStart(end, zone))
                        .as("next starts at the end")
                        .isEqualTo(end);
                assertThat(duration.windowEnd(end.minusNanos(1), zone)).isEqualTo(end);
                assertThat(duration.windowStart(start, zone)).isEqualTo(start);
                instant = instant.plus(Duration.ofHours(23).plusMinutes(17));
            }
        }
    }

    @Property(tries = 300)
    void anyInstantIsInsideItsWindow(
            @ForAll @LongRange(min = -2_000_000_000L, max = 4_000_000_000L) long epochSecond,
            @ForAll BudgetDuration duration) {
        for (ZoneId zone : ZONES) {
            Instant instant = Instant.ofEpochSecond(epochSecond);
            Instant start = duration.windowStart(instant, zone);
            Instant end = duration.windowEnd(instant, zone);
            assertThat(start).isBeforeOrEqualTo(instant);
            assertThat(end).isAfter(instant);
            assertThat(duration.windowStart(end, zone)).isEqualTo(end);
            BudgetWindow window = BudgetWindow.of(duration, instant, zone);
            assertThat(window).isEqualTo(new BudgetWindow(start, end));
        }
    }

    @Test
    void aLifetimeWindowStartsAtTheEpochAndNeverEnds() {
        BudgetWindow lifetime = BudgetWindow.of(null, utc("2026-03-10T12:00:00Z"), BERLIN);
        assertThat(lifetime.start()).isEqualTo(Instant.EPOCH);
        assertThat(lifetime.end()).isNull();
        assertThat(lifetime.contains(utc("2999-01-01T00:00:00Z"))).isTrue();
    }

    @Test
    void theCachedWindowFollowsTheInstantAndTheZone() {
        Instant before = local("2026-03-31T23:59:59", BERLIN);
        Instant after = local("2026-04-01T00:00:00", BERLIN);
        assertThat(BudgetWindow.of(BudgetDuration.MONTH, before, BERLIN).end()).isEqualTo(after);
        assertThat(BudgetWindow.of(BudgetDuration.MONTH, after, BERLIN).start()).isEqualTo(after);
        assertThat(BudgetWindow.of(BudgetDuration.MONTH, before, BERLIN).end()).isEqualTo(after);
        assertThat(BudgetWindow.of(BudgetDuration.MONTH, after, NEW_YORK).start())
                .isEqualTo(local("2026-03-01T00:00", NEW_YORK));
    }
}
