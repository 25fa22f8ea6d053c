package io.routegateway.state.webhook;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.webhook.TargetPolicy;
import io.routegateway.core.webhook.WebhookBody;
import io.routegateway.core.webhook.WebhookEventType;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;

/**
 * The checks of a webhook endpoint's input, without I/O, in the order of {@link WebhookInput}.
 * Messages never echo the secret, and name a sent value only when it is short and plain.
 */
public final class WebhookRules {

    public static final int MIN_SECRET = 16;
    public static final int MAX_SECRET = 256;

    private WebhookRules() {}

    /** Every field of a new endpoint, checked. */
    public record NewEndpoint(
            String id, String url, List<String> eventTypes, String secret, String format, boolean enabled) {}

    /** What an update changes; null is unchanged. */
    public record Changes(String url, List<String> eventTypes, String secret, String format, Boolean enabled) {}

    public static NewEndpoint create(JsonBody<WebhookInput> body, TargetPolicy policy) {
        WebhookInput input = body.value();
        return new NewEndpoint(
                Inputs.idOrNew(input.id(), "webhook"),
                url(input.url(), policy),
                eventTypes(body.node("event_types"), input.eventTypes()),
                secret(input.secret()),
                body.has("format") ? format(input.format()) : WebhookBody.JSON,
                !body.has("enabled") || enabled(input.enabled()));
    }

    public static Changes update(String pathId, JsonBody<WebhookInput> body, TargetPolicy policy) {
        WebhookInput input = body.value();
        if (body.has("id") && !Objects.equals(input.id(), pathId)) {
            throw AdminException.invalid(AdminCodes.ID, "a webhook's id cannot be changed; leave id out");
        }
        return new Changes(
                body.has("url") ? url(input.url(), policy) : null,
                body.has("event_types") ? eventTypes(body.node("event_types"), input.eventTypes()) : null,
                body.has("secret") ? secret(input.secret()) : null,
                body.has("format") ? format(input.format()) : null,
                body.has("enabled") ? enabled(input.enabled()) : null);
    }

    static String url(String url, TargetPolicy policy) {
        String refusal = policy.refusal(url);
        if (refusal != null) {
            throw AdminException.invalid(AdminCodes.WEBHOOK_URL, refusal);
        }
        return url;
    }

    static List<String> eventTypes(JsonNode sent, List<String> types) {
        if (sent == null || !sent.isArray() || types == null || types.isEmpty()) {
            throw AdminException.invalid(
                    AdminCodes.EVENT_TYPES, "event_types must be a non-empty list of " + WebhookEventType.wires());
        }
        if (types.size() > WebhookEventType.values().length * 2) {
            throw AdminException.invalid(AdminCodes.EVENT_TYPES, "event_types has too many entries");
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String type : types) {
            try {
                out.add(WebhookEventType.fromWire(type).wire());
            } catch (IllegalArgumentException e) {
                throw AdminException.invalid(
                        AdminCodes.EVENT_TYPES,
                        "unknown event type " + Inputs.echo(type) + "; known: " + WebhookEventType.wires());
            }
        }
        return new ArrayList<>(out);
    }

    static String secret(String secret) {
        if (secret == null || secret.length() < MIN_SECRET || secret.length() > MAX_SECRET) {
            throw AdminException.invalid(
                    AdminCodes.SECRET,
                    "secret must be " + MIN_SECRET + ".." + MAX_SECRET + " printable ASCII characters");
        }
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            if (c < '!' || c > '~') {
                throw AdminException.invalid(
                        AdminCodes.SECRET, "secret must be printable ASCII without spaces; character " + i + " is not");
            }
        }
        return secret;
    }

    static String format(String format) {
        if (!WebhookBody.isFormat(format)) {
            throw AdminException.invalid(AdminCodes.FORMAT, "format must be json or slack");
        }
        return format;
    }

    static boolean enabled(Boolean enabled) {
        if (enabled == null) {
            throw AdminException.invalid(AdminCodes.FIELD_TYPE, "enabled must be true or false");
        }
        return enabled;
    }
}
