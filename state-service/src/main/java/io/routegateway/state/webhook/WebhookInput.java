package io.routegateway.state.webhook;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Body of creating or updating (only the fields sent change) a webhook endpoint. Any other field is
 * refused ({@code validation.unknown_field}).
 *
 * @param id optional on create, generated when absent; on update it may only repeat the path's id
 * @param url the target, an absolute http(s) URL; internal addresses only when allow-listed
 * @param eventTypes the event types delivered (at least one), see {@code WebhookEventType}
 * @param secret the HMAC-SHA256 key, 16..256 printable ASCII characters; write-only: never returned
 * @param format {@code json} (default) or {@code slack}
 * @param enabled default true; a disabled endpoint gets no new deliveries
 */
@Schema(name = "WebhookInput")
public record WebhookInput(
        String id, String url, List<String> eventTypes, String secret, String format, Boolean enabled) {}
