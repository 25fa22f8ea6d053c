package io.routegateway.core.usage;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The daily partitions of {@code request_logs} (range-partitioned on {@code occurred_epoch_ms}, one
 * partition per UTC day, named {@code request_logs_pYYYYMMDD}): which to create ahead and which to
 * drop past retention, given the instant, the retention and how many days ahead to keep ready. Pure:
 * state-service's maintenance job lists the existing partitions, calls {@link #plan} and runs it.
 */
public final class LogPartitions {

    /** The name every daily partition starts with. */
    public static final String PREFIX = "request_logs_p";

    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.BASIC_ISO_DATE;

    private LogPartitions() {}

    /**
     * One daily partition.
     *
     * @param day the UTC day it holds
     */
    public record Day(LocalDate day) implements Comparable<Day> {

        /** The partition's table name. */
        public String name() {
            return PREFIX + day.format(SUFFIX);
        }

        /** Inclusive lower bound in epoch milliseconds. */
        public long fromEpochMs() {
            return day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        }

        /** Exclusive upper bound in epoch milliseconds. */
        public long toEpochMs() {
            return day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        }

        @Override
        public int compareTo(Day other) {
            return day.compareTo(other.day);
        }

        /** The partition a table name denotes, empty for any other name (the default partition included). */
        public static Optional<Day> ofName(String name) {
            if (name == null || !name.startsWith(PREFIX) || name.length() != PREFIX.length() + 8) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Day(LocalDate.parse(name.substring(PREFIX.length()), SUFFIX)));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }

        /** The partition holding {@code at}. */
        public static Day of(Instant at) {
            return new Day(LocalDate.ofInstant(at, ZoneOffset.UTC));
        }
    }

    /**
     * What to do: partitions to create (oldest first) and to drop (oldest first).
     *
     * @param retentionCutoff rows older than this are past retention
     */
    public record Plan(List<Day> create, List<Day> drop, Instant retentionCutoff) {}

    /**
     * Creates every day from today through {@code daysAhead} days after it that does not exist yet;
     * drops every existing day whose whole range ends at or before {@code now - retention} (a day
     * that still holds one row inside retention is kept). Never drops today or a day ahead, whatever
     * the retention.
     *
     * @param retention at least one day
     * @param daysAhead 0..366
     */
    public static Plan plan(Instant now, Duration retention, int daysAhead, Collection<Day> existing) {
        if (retention.compareTo(Duration.ofDays(1)) < 0) {
            throw new IllegalArgumentException("retention must be at least one day");
        }
        if (daysAhead < 0 || daysAhead > 366) {
            throw new IllegalArgumentException("days ahead must be within 0..366");
        }
        TreeSet<Day> have = new TreeSet<>(existing);
        Day today = Day.of(now);
        List<Day> create = new ArrayList<>();
        for (int i = 0; i <= daysAhead; i++) {
            Day day = new Day(today.day().plusDays(i));
            if (!have.contains(day)) {
                create.add(day);
            }
        }
        Instant cutoff = now.minus(retention);
        List<Day> drop = new ArrayList<>();
        for (Day day : have) {
            if (day.compareTo(today) < 0 && day.toEpochMs() <= cutoff.toEpochMilli()) {
                drop.add(day);
            }
        }
        return new Plan(List.copyOf(create), List.copyOf(drop), cutoff);
    }
}
