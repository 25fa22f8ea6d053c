package io.routegateway.common.time;

/**
 * How long ago a Kafka record was stamped by its producer (create time), as both services time the
 * hops of state propagation. The stamp is the producer host's clock: skew between hosts shows here,
 * and a stamp ahead of this clock counts as no wait.
 */
public final class RecordAge {

    /** What {@link #millis} answers for a record without a timestamp. */
    public static final long UNSTAMPED = -1;

    private RecordAge() {}

    /** Milliseconds from {@code stampMillis} to {@code nowMillis}, at least 0; {@link #UNSTAMPED} when the stamp is negative. */
    public static long millis(long stampMillis, long nowMillis) {
        return stampMillis < 0 ? UNSTAMPED : Math.max(0, nowMillis - stampMillis);
    }
}
