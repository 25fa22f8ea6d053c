package io.routegateway.core.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.state.HealthChange;

/**
 * Which state changes notify a person, and the {@link Notification} each one becomes. Pure: the
 * caller passes the changes a transition made and the time.
 *
 * <ul>
 *   <li>the account moved to {@code revoked}: {@link WebhookEventType#CREDENTIAL_REVOKED};
 *   <li>the account or a model moved to {@code error}: {@link WebhookEventType#CREDENTIAL_ERROR};
 *   <li>the account moved to {@code cooling} from a condition that was not cooling (an escalation or
 *       an account-scoped failure; a cooldown merely extended does not notify again): {@link
 *       WebhookEventType#CREDENTIAL_ESCALATED}.
 * </ul>
 *
 * Everything else (a model cooling, failures counted, recoveries, pauses) does not. A notification's
 * id is derived from the event id and what changed, so the same change always has the same id.
 */
public final class NotificationRules {

    /** The shares of a team's budget that notify once each per window, ascending. */
    public static final List<Integer> BUDGET_THRESHOLDS = List.of(80, 100);

    private NotificationRules() {}

    /** The notifications of the changes one credential event made. */
    public static List<Notification> forChanges(
            String credentialId, UUID eventId, Instant at, List<HealthChange> changes) {
        List<Notification> out = new ArrayList<>();
        for (HealthChange change : changes) {
            WebhookEventType type = typeOf(change);
            if (type != null) {
                out.add(Notification.credential(
                        idOf(eventId + "/" + type.wire() + "/" + change.modelKey()),
                        type,
                        at,
                        credentialId,
                        change.modelKey(),
                        change.from(),
                        change.to(),
                        change.cause(),
                        change.until()));
            }
        }
        return out;
    }

    /** The type a change notifies as, or null when it does not notify. */
    static WebhookEventType typeOf(HealthChange change) {
        if (change.to().equals(change.from())) {
            return null;
        }
        boolean account = change.modelKey() == null;
        if (account && "revoked".equals(change.to())) {
            return WebhookEventType.CREDENTIAL_REVOKED;
        }
        if ("error".equals(change.to())) {
            return WebhookEventType.CREDENTIAL_ERROR;
        }
        if (account && "cooling".equals(change.to())) {
            return WebhookEventType.CREDENTIAL_ESCALATED;
        }
        return null;
    }

    /** An OAuth access token that expired without a successful refresh. */
    public static Notification oauthExpired(String credentialId, Instant expiredAt, Instant at) {
        return Notification.credential(
                idOf("oauth.expired/" + credentialId + "/" + expiredAt),
                WebhookEventType.OAUTH_EXPIRED,
                at,
                credentialId,
                null,
                "authorized",
                "expired",
                null,
                null);
    }

    /**
     * A failed refresh; {@code failures} counts the consecutive failures including this one. Only
     * the first failure of a streak notifies (a streak retried with backoff would otherwise notify at
     * every attempt); null for later ones.
     *
     * @param label the failure's label (e.g. {@code upstream_status}), never its message
     */
    public static Notification oauthRefreshFailing(String credentialId, int failures, String label, Instant at) {
        if (failures != 1) {
            return null;
        }
        return Notification.credential(
                idOf("oauth.refresh_failing/" + credentialId + "/" + at),
                WebhookEventType.OAUTH_REFRESH_FAILING,
                at,
                credentialId,
                null,
                null,
                null,
                label == null ? "refresh" : "refresh/" + label,
                null);
    }

    /** A usage record dead-lettered: {@code reason} is a bounded label, {@code origin} the record's position. */
    public static Notification usageDeadLettered(String reason, String origin, Instant at) {
        return new Notification(
                Notification.SCHEMA,
                idOf("usage.dead_lettered/" + origin),
                WebhookEventType.USAGE_DEAD_LETTERED.wire(),
                at,
                null,
                null,
                null,
                null,
                reason,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /**
     * The budget thresholds a team's spend crossed in one step ({@code before} below, {@code after}
     * at or above), each a notification; none without a positive budget.
     */
    public static List<Notification> budgetCrossed(
            String teamId, long beforeMicros, long afterMicros, Long budgetMicros, Instant windowStart, Instant at) {
        List<Notification> out = new ArrayList<>();
        if (budgetMicros == null || budgetMicros <= 0 || afterMicros <= beforeMicros) {
            return out;
        }
        for (int percent : BUDGET_THRESHOLDS) {
            // multiplied in long: a budget is at most 1e9 USD = 1e15 µUSD, times 100 fits
            long line = Math.multiplyExact(budgetMicros, percent);
            if (Math.multiplyExact(beforeMicros, 100) < line && Math.multiplyExact(afterMicros, 100) >= line) {
                out.add(new Notification(
                        Notification.SCHEMA,
                        idOf("team.budget_threshold/" + teamId + "/" + windowStart + "/" + percent),
                        WebhookEventType.TEAM_BUDGET_THRESHOLD.wire(),
                        at,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        teamId,
                        percent,
                        afterMicros,
                        budgetMicros,
                        windowStart));
            }
        }
        return out;
    }

    private static UUID idOf(String what) {
        return UUID.nameUUIDFromBytes(what.getBytes(StandardCharsets.UTF_8));
    }
}
