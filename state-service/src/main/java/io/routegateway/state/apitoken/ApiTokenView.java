package io.routegateway.state.apitoken;

import java.time.Instant;

/**
 * An API token as listed: never the token or its hash.
 *
 * @param tokenPrefix the token's first characters, to recognise it
 * @param expired whether it stopped working (its expiry passed)
 * @param lastUsedAt when it last authenticated a call (refreshed at most once a minute); null = never
 */
public record ApiTokenView(
        String id,
        String name,
        String role,
        String teamId,
        String tokenPrefix,
        String createdBy,
        Instant createdAt,
        Instant updatedAt,
        Instant expiresAt,
        boolean expired,
        Instant lastUsedAt) {}
