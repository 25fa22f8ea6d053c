package io.routegateway.state.spend;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How often a subject's {@code spend.v1} snapshot leaves: at most once per interval, unless the
 * batch took the subject over its budget (then at once). A snapshot held back is not lost: the
 * subject waits here and {@link #due} hands it out once its interval has passed, to be published
 * with the window's totals as they are then. Between two snapshots the gateways count the costs of
 * the requests closed since the last one's {@code as_of} from the leases' CLOSED records, so a
 * budget holds as tightly as before; what the interval saves is a signed record (and every
 * gateway's signature check and read) per budgeted key and team per usage batch.
 *
 * <p>Time is passed in, in nanoseconds of a monotonic clock ({@link System#nanoTime}): this is a rate,
 * not a business time. Thread-safe; memory is one entry per subject published within the interval
 * or waiting.
 */
public final class SpendThrottle {

    private final long intervalNanos;
    /** When each subject's snapshot last left, for the subjects that published within the interval or wait. */
    private final Map<SpendRules.Subject, Long> lastPublished = new HashMap<>();
    /** Subjects whose snapshot was held back, in the lock order of their rows. */
    private final TreeSet<SpendRules.Subject> waiting = new TreeSet<>();

    /** @param intervalNanos 0 publishes every snapshot at once (no throttle) */
    public SpendThrottle(long intervalNanos) {
        if (intervalNanos < 0) {
            throw new IllegalArgumentException("the spend publish interval must not be negative");
        }
        this.intervalNanos = intervalNanos;
    }

    /**
     * Whether the subject's snapshot leaves now: yes when its budget was crossed, when it has not
     * published within the interval, or when there is no interval. When it does not, the subject
     * waits for {@link #due}.
     */
    public synchronized boolean publishNow(SpendRules.Subject subject, boolean budgetCrossed, long nowNanos) {
        if (intervalNanos == 0) {
            return true;
        }
        Long last = lastPublished.get(subject);
        if (budgetCrossed || last == null || nowNanos - last >= intervalNanos) {
            lastPublished.put(subject, nowNanos);
            waiting.remove(subject);
            return true;
        }
        waiting.add(subject);
        return false;
    }

    /**
     * The waiting subjects whose interval has passed, in lock order; they count as published now
     * (a caller that fails to publish them hands them back with {@link #retry}). Forgets the subjects
     * whose last snapshot is older than the interval and that do not wait.
     */
    public synchronized List<SpendRules.Subject> due(long nowNanos) {
        List<SpendRules.Subject> due = new ArrayList<>();
        for (Iterator<SpendRules.Subject> it = waiting.iterator(); it.hasNext(); ) {
            SpendRules.Subject subject = it.next();
            Long last = lastPublished.get(subject);
            if (last == null || nowNanos - last >= intervalNanos) {
                due.add(subject);
                lastPublished.put(subject, nowNanos);
                it.remove();
            }
        }
        lastPublished
                .entrySet()
                .removeIf(entry -> nowNanos - entry.getValue() >= intervalNanos && !waiting.contains(entry.getKey()));
        return due;
    }

    /** Subjects {@link #due} handed out that were not published: they wait again. */
    public synchronized void retry(List<SpendRules.Subject> subjects) {
        waiting.addAll(subjects);
    }

    /** Subjects waiting; for tests and the bounds. */
    synchronized int waiting() {
        return waiting.size();
    }

    /** Subjects remembered; for tests of the bounds. */
    synchronized int remembered() {
        return lastPublished.size();
    }
}
