package io.routegateway.core.event;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Type {@code spend.v1} on {@link Topics#SPEND}, keyed by {@code subject + ":" + subject_id}: the
 * settled spend of one AccessKey or team in its current budget window, as state-service has stored
 * it. Gateways add the costs of requests closed after {@code as_of} (from {@link LeaseEvent}s) to it,
 * so a budget holds within the propagation lag on every replica.
 *
 * @param subject {@code key} or {@code team}
 * @param windowStart start of the budget window this spend belongs to (the epoch for a lifetime
 *     budget); a reader whose clock is past {@code window_end} treats the spend as 0
 * @param windowEnd end of the window, exclusive; null for a lifetime budget
 * @param spendMicros settled cost of the window's requests, micro-USD
 * @param asOf the newest usage record counted, by its {@code occurred_at}
 */
public record SpendSnapshot(
        String subject,
        String subjectId,
        long version,
        Instant windowStart,
        Instant windowEnd,
        long spendMicros,
        long requests,
        long inputTokens,
        long outputTokens,
        Instant asOf,
        Instant publishedAt) {

    public static final String TYPE = "spend.v1";
    public static final String KEY = "key";
    public static final String TEAM = "team";

    /** The record key on {@link Topics#SPEND}. */
    public static String recordKey(String subject, String subjectId) {
        return subject + ":" + subjectId;
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
