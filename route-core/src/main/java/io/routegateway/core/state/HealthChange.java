package io.routegateway.core.state;

import java.time.Instant;

/**
 * One line of a credential's health timeline: the account or one model moved from one condition to
 * another because of an event.
 *
 * @param modelKey null for the account itself
 * @param from condition before: {@code ok}, {@code failing} (failures counted, no
 *     cooldown running), {@code cooling}, {@code warning}, {@code error},
 *     {@code paused}, {@code revoked}, or {@code absent} for a model without a row
 * @param to condition after, same vocabulary
 * @param cause the event type, plus the failure label where there is one (e.g. {@code
 *     transient-failure-recorded.v1/upstream_status})
 * @param until when a cooling condition ends, else null
 * @param detail the failure message or the recovery route, may be null
 */
public record HealthChange(String modelKey, String from, String to, String cause, Instant until, String detail) {

    public boolean isRecovery() {
        return ("ok".equals(to) || "absent".equals(to)) && !("ok".equals(from) || "absent".equals(from));
    }
}
