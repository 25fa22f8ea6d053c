package io.routegateway.state.audit;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One audit entry.
 *
 * @param subject who: the API token's name, {@code break-glass}, the SSO subject or {@code service}
 * @param via how: {@code api_token}, {@code break_glass}, {@code sso} or {@code service}
 * @param before the resource before the write, secrets redacted; null: it did not exist
 * @param after the resource after the write, secrets redacted; null: it no longer exists
 */
public record AuditView(
        long id,
        Instant occurredAt,
        String subject,
        String via,
        String tokenId,
        String method,
        String path,
        String resourceType,
        String resourceId,
        JsonNode before,
        JsonNode after,
        String requestId) {}
