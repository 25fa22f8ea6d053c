package io.routegateway.state.credential;

import java.time.Instant;
import java.util.UUID;

/**
 * One line of a credential's health timeline.
 *
 * @param modelKey null for the account itself
 * @param from {@code ok}, {@code failing}, {@code cooling}, {@code warning}, {@code error}, {@code
 *     paused}, {@code revoked}, or {@code absent} (a model without a row)
 * @param cause the event type, plus the failure label where there is one
 * @param until when a cooling condition ends
 */
public record TimelineEntryView(
        long id,
        Instant occurredAt,
        String modelKey,
        String from,
        String to,
        String cause,
        Instant until,
        String detail,
        UUID eventId) {}
