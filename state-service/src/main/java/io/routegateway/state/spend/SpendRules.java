package io.routegateway.state.spend;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.limits.AdmissionCode;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.BudgetWindow;
import io.routegateway.core.limits.Limits;

/**
 * Spend without I/O: which window a request's cost belongs to, how a batch of stored usage rows adds
 * up per subject and window, which windows are published, and whether a budget is spent.
 *
 * <p>A subject (an AccessKey or a team) counts its spend in the window of its own limits: the
 * {@code budget_duration}'s calendar window in {@code route.default-time-zone}; a lifetime window
 * (from the epoch, no end) for a budget without a duration; the calendar month otherwise, so the
 * spend of a subject without a budget is shown too. The window is chosen when the usage record is
 * applied, with the limits the subject has then: after a change of {@code budget_duration}, the new
 * window counts from the change on.
 */
public final class SpendRules {

    /** The window of a budget without a duration. */
    public static final String LIFETIME = "lifetime";
    /** The refusal of a request whose key's or team's budget is spent (the gateway's code). */
    public static final String BUDGET_EXCEEDED = AdmissionCode.BUDGET_EXCEEDED.wire();

    private SpendRules() {}

    /**
     * A spend window.
     *
     * @param duration a {@link BudgetDuration} wire value or {@link #LIFETIME}
     * @param end exclusive; null for the lifetime window
     */
    public record Window(String duration, Instant start, Instant end) {}

    /** An AccessKey ({@link SpendSnapshot#KEY}) or a team ({@link SpendSnapshot#TEAM}). */
    public record Subject(String kind, String id) implements Comparable<Subject> {

        @Override
        public int compareTo(Subject other) {
            int byKind = kind.compareTo(other.kind);
            return byKind != 0 ? byKind : id.compareTo(other.id);
        }

        /** The record key on {@code route.spend}. */
        public String recordKey() {
            return SpendSnapshot.recordKey(kind, id);
        }
    }

    /**
     * One stored usage row as spend counts it (negative values, which no upstream should report,
     * count as 0).
     *
     * @param costMicros null when the model has no price
     * @param cacheWriteTokens 5-minute and 1-hour cache writes together
     * @param cacheWrite1hTokens of the cache writes, the 1-hour ones
     * @param reasoningTokens of the output tokens, the reasoning ones
     */
    public record Counted(
            String accessKeyId,
            String teamId,
            Instant occurredAt,
            Long costMicros,
            Long inputTokens,
            Long outputTokens,
            Long cacheReadTokens,
            Long cacheWriteTokens,
            Long cacheWrite1hTokens,
            Long reasoningTokens) {}

    /**
     * What one batch adds to one window, or a window's totals as stored.
     *
     * @param cacheWriteTokens 5-minute and 1-hour cache writes together
     * @param cacheWrite1hTokens of the cache writes, the 1-hour ones (the 5-minute ones are the rest)
     * @param reasoningTokens of the output tokens, the reasoning ones
     */
    public record Totals(
            Subject subject,
            Window window,
            long spendMicros,
            long requests,
            long inputTokens,
            long outputTokens,
            long cacheReadTokens,
            long cacheWriteTokens,
            long cacheWrite1hTokens,
            long reasoningTokens,
            Instant asOf) {

        /** Of the cache writes, the 5-minute ones. */
        public long cacheWrite5mTokens() {
            return Math.max(0, cacheWriteTokens - cacheWrite1hTokens);
        }
    }

    /**
     * The window of a subject with {@code limits} that holds {@code at}: for a budget, the one the
     * gateways' admission checks ({@link BudgetWindow#of}); without one, the calendar month.
     */
    public static Window window(Limits limits, Instant at, ZoneId zone) {
        if (limits.maxBudget() == null) {
            BudgetWindow month = BudgetWindow.of(BudgetDuration.MONTH, at, zone);
            return new Window(BudgetDuration.MONTH.wire(), month.start(), month.end());
        }
        BudgetDuration duration = limits.budgetDuration();
        BudgetWindow window = BudgetWindow.of(duration, at, zone);
        return new Window(duration == null ? LIFETIME : duration.wire(), window.start(), window.end());
    }

    /**
     * The batch's rows added up per subject and window, in (subject, window) order — the order the
     * rows are locked in, so two batches never lock in opposite orders. A row counts for its key and
     * for its team; a subject missing from the limits (deleted meanwhile) counts nothing.
     */
    public static List<Totals> deltas(
            List<Counted> rows, Map<String, Limits> keyLimits, Map<String, Limits> teamLimits, ZoneId zone) {
        Map<List<Object>, Totals> sums = new HashMap<>();
        for (Counted row : rows) {
            add(sums, SpendSnapshot.KEY, row.accessKeyId(), keyLimits, row, zone);
            add(sums, SpendSnapshot.TEAM, row.teamId(), teamLimits, row, zone);
        }
        return sums.values().stream().sorted(LOCK_ORDER).toList();
    }

    private static void add(
            Map<List<Object>, Totals> sums,
            String kind,
            String id,
            Map<String, Limits> limitsById,
            Counted row,
            ZoneId zone) {
        if (id == null || !limitsById.containsKey(id)) {
            return;
        }
        Subject subject = new Subject(kind, id);
        Window window = window(limitsById.get(id), row.occurredAt(), zone);
        List<Object> sumKey = List.of(subject, window);
        Totals before = sums.get(sumKey);
        Totals one = new Totals(
                subject,
                window,
                counted(row.costMicros()),
                1,
                counted(row.inputTokens()),
                counted(row.outputTokens()),
                counted(row.cacheReadTokens()),
                counted(row.cacheWriteTokens()),
                counted(row.cacheWrite1hTokens()),
                counted(row.reasoningTokens()),
                row.occurredAt());
        sums.put(sumKey, before == null ? one : plus(before, one));
    }

    static Totals plus(Totals left, Totals right) {
        return new Totals(
                left.subject(),
                left.window(),
                saturatingAdd(left.spendMicros(), right.spendMicros()),
                saturatingAdd(left.requests(), right.requests()),
                saturatingAdd(left.inputTokens(), right.inputTokens()),
                saturatingAdd(left.outputTokens(), right.outputTokens()),
                saturatingAdd(left.cacheReadTokens(), right.cacheReadTokens()),
                saturatingAdd(left.cacheWriteTokens(), right.cacheWriteTokens()),
                saturatingAdd(left.cacheWrite1hTokens(), right.cacheWrite1hTokens()),
                saturatingAdd(left.reasoningTokens(), right.reasoningTokens()),
                left.asOf().isAfter(right.asOf()) ? left.asOf() : right.asOf());
    }

    /**
     * The windows to publish after a batch changed {@code changed}: one per subject that has a
     * budget, its newest changed window, and only when that window is not older than the subject's
     * current one at {@code now} (a late record for a past window changes nothing a gateway checks,
     * and publishing it would replace the current window's spend on the compacted topic).
     */
    public static List<Totals> toPublish(List<Totals> changed, Map<Subject, Limits> limits, Instant now, ZoneId zone) {
        TreeMap<Subject, Totals> newest = new TreeMap<>();
        for (Totals totals : changed) {
            Limits subjectLimits = limits.get(totals.subject());
            if (subjectLimits == null || subjectLimits.maxBudget() == null) {
                continue;
            }
            Window current = window(subjectLimits, now, zone);
            if (!totals.window().duration().equals(current.duration())
                    || totals.window().start().isBefore(current.start())) {
                continue;
            }
            newest.merge(
                    totals.subject(),
                    totals,
                    (left, right) ->
                            left.window().start().isAfter(right.window().start()) ? left : right);
        }
        return new ArrayList<>(newest.values());
    }

    /**
     * Whether the batch that added {@code deltas} took the subject's spend in {@code after}'s window
     * from under its budget to at or over it (the snapshot that tells the gateways so is not held
     * back). A window the deltas do not name counts as crossed, so its snapshot is not held either.
     */
    public static boolean crossedBudget(Totals after, List<Totals> deltas, Limits limits) {
        Long budget = limits == null ? null : limits.maxBudgetMicros();
        if (budget == null) {
            return false;
        }
        for (Totals delta : deltas) {
            if (delta.subject().equals(after.subject())
                    && delta.window().start().equals(after.window().start())) {
                long before = after.spendMicros() - delta.spendMicros();
                return before < budget && after.spendMicros() >= budget;
            }
        }
        return true;
    }

    /** The spend.v1 record of a window's totals. */
    public static SpendSnapshot snapshot(Totals totals, long version, Instant publishedAt) {
        return new SpendSnapshot(
                totals.subject().kind(),
                totals.subject().id(),
                version,
                totals.window().start(),
                totals.window().end(),
                totals.spendMicros(),
                totals.requests(),
                totals.inputTokens(),
                totals.outputTokens(),
                totals.asOf(),
                publishedAt);
    }

    /** An empty window: nothing spent, as of its start. */
    public static Totals empty(Subject subject, Window window) {
        return new Totals(subject, window, 0, 0, 0, 0, 0, 0, 0, 0, window.start());
    }

    /**
     * Whether the budget refuses a request now: the settled spend has reached it ({@code max_budget}
     * 0 refuses everything), the rule of the gateways' {@code Admission}. No budget never refuses.
     */
    public static boolean exceeded(long spendMicros, Limits limits) {
        Long budget = limits.maxBudgetMicros();
        return budget != null && spendMicros >= budget;
    }

    /** Micro-USD as USD, without trailing zeros. */
    public static BigDecimal usd(long micros) {
        BigDecimal usd = BigDecimal.valueOf(micros, Limits.BUDGET_SCALE).stripTrailingZeros();
        return usd.scale() < 0 ? usd.setScale(0) : usd;
    }

    static long counted(Long value) {
        return value == null || value < 0 ? 0 : value;
    }

    static long saturatingAdd(long left, long right) {
        long sum = left + right;
        // both are never negative here: an overflow wraps below zero
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** Orders totals as their rows are locked: subject, then window kind and start. */
    static final Comparator<Totals> LOCK_ORDER = Comparator.comparing(Totals::subject)
            .thenComparing(totals -> totals.window().duration())
            .thenComparing(totals -> totals.window().start());
}
