package io.routegateway.gateway.config;

import jakarta.validation.constraints.Pattern;

import io.smallrye.config.ConfigMapping;

/** Settings every route gateway service shares, under {@code route.*}. */
@ConfigMapping(prefix = "route")
public interface RouteConfig {

    /**
     * Key that encrypts upstream secrets at rest: base64 of 32 random bytes ({@code
     * ROUTE_SECRET_ENCRYPTION_KEY}). Every service of one deployment needs the same key. Required:
     * only the {@code dev} and {@code test} profiles have a local default.
     */
    @Pattern(regexp = "[A-Za-z0-9+/]{43}=", message = "must be base64 of exactly 32 bytes")
    String secretEncryptionKey();
}
