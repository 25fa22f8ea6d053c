package io.routegateway.state.apitoken;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A new API token.
 *
 * @param name what the token is for (required, unique in no way: the id tells tokens apart)
 * @param role {@code admin}, {@code operator}, {@code viewer}, {@code team_admin} or {@code
 *     team_member}: never more than the caller's own rights
 * @param teamId the team of a team role (required for those, refused for the others)
 * @param expiresAt when the token stops working; null = never
 */
@Schema(name = "ApiTokenInput")
public record ApiTokenInput(String name, String role, String teamId, Instant expiresAt) {}
