package io.routegateway.core.limits;

import java.util.Arrays;

/**
 * Amounts at instants (epoch millis), kept sorted by time in two parallel primitive arrays with a
 * running cumulative sum, so "how many / how much after t" is a binary search and a subtraction,
 * whatever the number of entries. Not thread-safe: {@link AdmissionLedger} guards it.
 *
 * <p>Entries mostly arrive in time order (appended); a late one is inserted by shifting the few
 * newer entries. Pruning only moves the head; the arrays are compacted (and the sums rebased, so
 * they never overflow) when the tail reaches the end.
 */
final class TimeSeries {

    /**
     * One entry's amount is capped here (a trillion tokens, or a million USD in micro-USD) so the
     * running sums cannot overflow between two compactions.
     */
    static final long MAX_AMOUNT = 1_000_000_000_000L;

    private long[] times;
    /** cums[i] = the sum of the amounts at indexes 0..i (pruned ones included until compaction). */
    private long[] cums;

    private int head;
    private int tail;

    TimeSeries() {
        times = new long[4];
        cums = new long[4];
    }

    int size() {
        return tail - head;
    }

    boolean isEmpty() {
        return tail == head;
    }

    /** Adds {@code amount} at {@code time}; after any entries at the same time. */
    void add(long time, long amount) {
        long value = Math.max(0, Math.min(amount, MAX_AMOUNT));
        if (tail == times.length) {
            makeRoom();
        }
        int at = tail;
        while (at > head && times[at - 1] > time) {
            at--;
        }
        if (at < tail) {
            System.arraycopy(times, at, times, at + 1, tail - at);
            System.arraycopy(cums, at, cums, at + 1, tail - at);
            for (int i = at + 1; i <= tail; i++) {
                cums[i] += value;
            }
        }
        times[at] = time;
        cums[at] = cumBefore(at) + value;
        tail++;
    }

    /** Drops every entry at or before {@code cutoff}. */
    void pruneThrough(long cutoff) {
        while (head < tail && times[head] <= cutoff) {
            head++;
        }
        if (head == tail) {
            head = 0;
            tail = 0;
        }
    }

    /** The index of the first entry strictly after {@code after}. */
    int firstAfter(long after) {
        int low = head;
        int high = tail;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (times[mid] <= after) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** How many entries lie strictly after {@code after}. */
    int countAfter(long after) {
        return tail - firstAfter(after);
    }

    /** The sum of the amounts strictly after {@code after}. */
    long sumAfter(long after) {
        return sumFrom(firstAfter(after));
    }

    /** The time of the {@code n}-th (0-based) entry strictly after {@code after}. */
    long timeOfNthAfter(long after, int n) {
        return times[firstAfter(after) + n];
    }

    /** The time of the newest entry; {@code fallback} when empty. */
    long lastTime(long fallback) {
        return tail == head ? fallback : times[tail - 1];
    }

    /**
     * Of the entries strictly after {@code after}, the time of the entry whose leaving brings what
     * remains to at most {@code target} (entries leave oldest first); {@code fallback} when they are
     * already at most {@code target}. {@code target} must be ≥ 0.
     */
    long timeWhenSumAfterFallsTo(long after, long target, long fallback) {
        int first = firstAfter(after);
        if (sumFrom(first) <= target) {
            return fallback;
        }
        // The smallest j in [first, tail) with sumFrom(j + 1) <= target; sumFrom is non-increasing.
        int low = first;
        int high = tail - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sumFrom(mid + 1) <= target) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return times[low];
    }

    private long sumFrom(int index) {
        return tail == head || index >= tail ? 0 : cums[tail - 1] - cumBefore(index);
    }

    private long cumBefore(int index) {
        return index == 0 ? 0 : cums[index - 1];
    }

    private void makeRoom() {
        int size = tail - head;
        if (head > 0) {
            long rebase = cumBefore(head);
            System.arraycopy(times, head, times, 0, size);
            System.arraycopy(cums, head, cums, 0, size);
            for (int i = 0; i < size; i++) {
                cums[i] -= rebase;
            }
            head = 0;
            tail = size;
        }
        if (size * 4 >= times.length * 3) {
            int capacity = Math.max(4, times.length * 2);
            times = Arrays.copyOf(times, capacity);
            cums = Arrays.copyOf(cums, capacity);
        }
    }
}
