package io.routegateway.gateway.view;

import io.smallrye.config.ConfigMapping;

/** The keys state-topic records must be signed with, under {@code route.state-signing.*}. */
@ConfigMapping(prefix = "route.state-signing")
public interface StateSigningConfig {

    /**
     * Comma-separated {@code keyId=base64 X.509 Ed25519 public key} ({@code
     * ROUTE_STATE_SIGNING_PUBLIC_KEYS}; the body of {@code openssl pkey -pubout}). Several keys are
     * accepted at once while state-service's key is rotated. Required: only the {@code dev} and
     * {@code test} profiles have a local key; without one the gateway does not start, so it never
     * applies unsigned state.
     */
    String publicKeys();
}
