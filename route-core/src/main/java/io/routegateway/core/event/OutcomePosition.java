package io.routegateway.core.event;

/**
 * Where a record sits on {@link Topics#OUTCOMES}. The records of one credential are ordered on
 * their partition (key = credential id), so a position says which of two records of the same
 * credential came first; times cannot, because they come from the clocks of different replicas.
 *
 * @param partition the partition; a credential's records share one while the partition count
 *     stays the same
 * @param offset the record's offset in that partition
 */
public record OutcomePosition(int partition, long offset) {

    /**
     * Whether the record at {@code position} is at or before {@code mark} on the same partition: a
     * state marked with {@code mark} already reflects it. Positions on different partitions (the
     * topic's partition count changed) are not comparable: not covered. Null for either (an event
     * from the admin API, a state no record changed yet): not covered.
     */
    public static boolean covers(OutcomePosition mark, OutcomePosition position) {
        return mark != null
                && position != null
                && mark.partition() == position.partition()
                && position.offset() <= mark.offset();
    }
}
