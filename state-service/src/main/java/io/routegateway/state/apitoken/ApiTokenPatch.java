package io.routegateway.state.apitoken;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A change of an API token: its name and its expiry only. Its role and team never change ({@code
 * validation.immutable_field}): a token's rights are fixed when it is created.
 *
 * @param expiresAt null clears the expiry (the token never expires); absent leaves it
 */
@Schema(name = "ApiTokenPatch")
public record ApiTokenPatch(String name, Instant expiresAt) {}
