package io.routegateway.core.webhook;

import java.util.Arrays;
import java.util.List;

/** What a webhook endpoint subscribes to: the state changes that need a person. */
public enum WebhookEventType {
    /** The account was revoked (a permanent failure, an operator's revoke, a refresh answered "invalid_grant"). */
    CREDENTIAL_REVOKED("credential.revoked"),
    /** The account or one of its models flipped to {@code error}. */
    CREDENTIAL_ERROR("credential.error"),
    /** The whole account started cooling (every servable model cooling escalated, or an account-scoped failure). */
    CREDENTIAL_ESCALATED("credential.escalated"),
    /** An OAuth-managed account's access token expired without a successful refresh. */
    OAUTH_EXPIRED("oauth.expired"),
    /** A refresh of an OAuth-managed account's token failed (it is retried with backoff). */
    OAUTH_REFRESH_FAILING("oauth.refresh_failing"),
    /** A usage record went to the dead-letter topic. */
    USAGE_DEAD_LETTERED("usage.dead_lettered"),
    /** A team's settled spend crossed a share (80 %, 100 %) of its budget in the current window. */
    TEAM_BUDGET_THRESHOLD("team.budget_threshold");

    private final String wire;

    WebhookEventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** @throws IllegalArgumentException for a name that is not one of {@link #wires()} */
    public static WebhookEventType fromWire(String wire) {
        for (WebhookEventType type : values()) {
            if (type.wire.equals(wire)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown webhook event type");
    }

    public static List<String> wires() {
        return Arrays.stream(values()).map(WebhookEventType::wire).toList();
    }
}
