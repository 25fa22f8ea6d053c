package io.routegateway.state.webhook;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A webhook endpoint as the admin API shows it: never its secret, only that one is set. */
@Schema(name = "Webhook")
public record WebhookView(
        String id,
        String url,
        List<String> eventTypes,
        String format,
        boolean enabled,
        boolean secretSet,
        Instant createdAt,
        Instant updatedAt) {}
