package io.routegateway.state.webhook;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One delivery of the log, newest first.
 *
 * @param id the {@code X-Route-Delivery-Id}, the same at every retry
 * @param status {@code pending}, {@code delivered} or {@code failed} (attempts used up)
 * @param lastStatus the HTTP status of the last attempt, null when none answered
 * @param lastError why the last attempt failed (timeout, refused target, status), null after success
 */
@Schema(name = "WebhookDelivery")
public record DeliveryView(
        UUID id,
        UUID notificationId,
        String eventType,
        String status,
        int attempts,
        Instant nextAttemptAt,
        Integer lastStatus,
        String lastError,
        Instant createdAt,
        Instant deliveredAt) {}
