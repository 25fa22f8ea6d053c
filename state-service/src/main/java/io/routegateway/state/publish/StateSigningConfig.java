package io.routegateway.state.publish;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * state-service's key for signing the state topics, under {@code route.state-signing.*}. Readers
 * hold the matching public key under the same id ({@code route.state-signing.public-keys}).
 */
@ConfigMapping(prefix = "route.state-signing")
public interface StateSigningConfig {

    /**
     * Base64 PKCS#8 Ed25519 private key ({@code ROUTE_STATE_SIGNING_PRIVATE_KEY}; the body of
     * {@code openssl genpkey -algorithm ed25519}). Required: only the {@code dev} and {@code test}
     * profiles have a local key, and state-service does not start without one.
     */
    String privateKey();

    /** Id of the key, sent in the {@code route-signature-key} header ({@code ROUTE_STATE_SIGNING_KEY_ID}). */
    @WithDefault("k1")
    String keyId();
}
