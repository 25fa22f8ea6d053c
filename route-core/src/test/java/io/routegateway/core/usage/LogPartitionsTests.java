package io.routegateway.core.usage;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogPartitionsTests {

    static final Instant NOW = Instant.parse("2026-12-06T05:30:00Z");

    static LogPartitions.Day day(String date) {
        return new LogPartitions.Day(LocalDate.parse(date));
    }

    @Test
    void createsTodayAndTheDaysAheadThatAreMissing() {
        LogPartitions.Plan plan =
                LogPartitions.plan(NOW, Duration.ofDays(30), 3, List.of(day("2026-12-06"), day("2026-12-08")));
        assertThat(plan.create()).containsExactly(day("2026-12-07"), day("2026-12-09"));
        assertThat(plan.drop()).isEmpty();
    }

    @Test
    void dropsOnlyDaysWhoseWholeRangeIsPastRetention() {
        // cutoff 2026-11-06T05:30Z: the 5th ends at the 6th 00:00 (past), the 6th still holds kept rows
        LogPartitions.Plan plan = LogPartitions.plan(
                NOW,
                Duration.ofDays(30),
                0,
                List.of(day("2026-11-04"), day("2026-11-05"), day("2026-11-06"), day("2026-12-06")));
        assertThat(plan.drop()).containsExactly(day("2026-11-04"), day("2026-11-05"));
        assertThat(plan.create()).isEmpty();
        assertThat(plan.retentionCutoff()).isEqualTo(Instant.parse("2026-11-06T05:30:00Z"));
    }

    @Test
    void aDayEndingExactlyAtTheCutoffIsDropped() {
        Instant midnight = Instant.parse("2026-12-06T00:00:00Z");
        LogPartitions.Plan plan = LogPartitions.plan(midnight, Duration.ofDays(1), 0, List.of(day("2026-12-04")));
        assertThat(plan.drop()).containsExactly(day("2026-12-04"));
        plan = LogPartitions.plan(midnight, Duration.ofDays(1), 0, List.of(day("2026-12-05")));
        assertThat(plan.drop()).isEmpty();
    }

    @Test
    void neverDropsTodayOrADayAhead() {
        LogPartitions.Plan plan = LogPartitions.plan(
                NOW, Duration.ofDays(1), 2, List.of(day("2026-12-06"), day("2026-12-07"), day("2026-12-30")));
        assertThat(plan.drop()).isEmpty();
        assertThat(plan.create()).containsExactly(day("2026-12-08"));
    }

    @Test
    void namesAndBoundsAreUtcDays() {
        LogPartitions.Day day = day("2026-12-06");
        assertThat(day.name()).isEqualTo("request_logs_p20261206");
        assertThat(day.fromEpochMs())
                .isEqualTo(Instant.parse("2026-12-06T00:00:00Z").toEpochMilli());
        assertThat(day.toEpochMs())
                .isEqualTo(Instant.parse("2026-12-07T00:00:00Z").toEpochMilli());
        assertThat(LogPartitions.Day.of(Instant.parse("2026-12-06T23:59:59.999Z")))
                .isEqualTo(day);
        assertThat(LogPartitions.Day.ofName("request_logs_p20261206")).contains(day);
        assertThat(LogPartitions.Day.ofName("request_logs_default")).isEmpty();
        assertThat(LogPartitions.Day.ofName("request_logs_p2026120x")).isEmpty();
        assertThat(LogPartitions.Day.ofName(null)).isEmpty();
    }

    @Test
    void refusesARetentionUnderADayAndAnUnboundedLead() {
        assertThatThrownBy(() -> LogPartitions.plan(NOW, Duration.ofHours(23), 1, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LogPartitions.plan(NOW, Duration.ofDays(30), 367, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LogPartitions.plan(NOW, Duration.ofDays(30), -1, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
