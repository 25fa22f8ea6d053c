package io.routegateway.core.webhook;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of a webhook delivery in the {@code json} format, schema {@value #SCHEMA}: every field
 * is always present (null when it does not apply), so receivers can bind it to one type. Never
 * carries prompt or answer text, failure messages or secrets; only ids, conditions and cause labels.
 *
 * @param id the notification's id: the same for every endpoint it goes to and every retry
 * @param type a {@link WebhookEventType} wire name
 * @param credentialId the credential concerned (credential and OAuth types), else null
 * @param modelKey the model concerned ({@code credential.error} of one model), else null
 * @param from condition before ({@code ok}, {@code failing}, {@code cooling}, {@code error}, …), else null
 * @param to condition after, else null
 * @param cause the event type and failure label that caused it, else null
 * @param until when an account cooldown ends ({@code credential.escalated}), else null
 * @param teamId the team concerned ({@code team.budget_threshold}), else null
 * @param thresholdPercent the share of the budget crossed (80 or 100), else null
 * @param spendMicros the team's settled spend in the window, micro-USD, else null
 * @param budgetMicros the team's budget, micro-USD, else null
 * @param windowStart start of the budget window, else null
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Notification(
        String schema,
        UUID id,
        String type,
        Instant occurredAt,
        String credentialId,
        String modelKey,
        String from,
        String to,
        String cause,
        Instant until,
        String teamId,
        Integer thresholdPercent,
        Long spendMicros,
        Long budgetMicros,
        Instant windowStart) {

    public static final String SCHEMA = "route.webhook.v1";

    public WebhookEventType eventType() {
        return WebhookEventType.fromWire(type);
    }

    static Notification credential(
            UUID id,
            WebhookEventType type,
            Instant at,
            String credentialId,
            String modelKey,
            String from,
            String to,
            String cause,
            Instant until) {
        return new Notification(
                SCHEMA,
                id,
                type.wire(),
                at,
                credentialId,
                modelKey,
                from,
                to,
                cause,
                until,
                null,
                null,
                null,
                null,
                null);
    }
}
