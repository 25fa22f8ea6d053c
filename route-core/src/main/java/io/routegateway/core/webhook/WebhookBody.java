package io.routegateway.core.webhook;

import java.util.LinkedHashMap;
import java.util.Map;

import io.routegateway.core.json.Json;

/** What a delivery sends, by endpoint format: the {@link Notification} itself ({@code json}) or a Slack message ({@code slack}). */
public final class WebhookBody {

    public static final String JSON = "json";
    public static final String SLACK = "slack";

    private WebhookBody() {}

    public static boolean isFormat(String format) {
        return JSON.equals(format) || SLACK.equals(format);
    }

    /** The body for {@code format}; ids and labels only, never secrets or message text. */
    public static String render(Notification notification, String format) {
        if (SLACK.equals(format)) {
            Map<String, Object> slack = new LinkedHashMap<>();
            slack.put("text", slackEscaped(slackText(notification)));
            return Json.write(slack);
        }
        return Json.write(notification);
    }

    /**
     * Slack reads {@code <...>} in a message as a link or a mention ({@code <!channel>}); an id or
     * model key an admin typed must arrive as text, so the three characters Slack asks to escape are.
     */
    static String slackEscaped(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String slackText(Notification n) {
        StringBuilder text = new StringBuilder("[route gateway] ").append(n.type());
        if (n.credentialId() != null) {
            text.append(": credential ").append(n.credentialId());
        }
        if (n.modelKey() != null) {
            text.append(" model ").append(n.modelKey());
        }
        if (n.from() != null || n.to() != null) {
            text.append(" (").append(n.from()).append(" → ").append(n.to()).append(')');
        }
        if (n.cause() != null) {
            text.append(", cause ").append(n.cause());
        }
        if (n.teamId() != null) {
            text.append(": team ")
                    .append(n.teamId())
                    .append(" reached ")
                    .append(n.thresholdPercent())
                    .append("% of its budget");
        }
        return text.toString();
    }
}
