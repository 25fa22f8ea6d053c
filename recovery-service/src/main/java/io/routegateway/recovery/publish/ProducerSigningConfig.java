package io.routegateway.recovery.publish;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * recovery-service's key for signing what it sends to state-service ({@code route.outcomes}, {@code
 * route.usage}), under {@code route.producer-signing.*}, as the gateways sign theirs with their own
 * key. state-service holds the matching public key under the same id ({@code
 * route.producer-signing.public-keys}) and applies nothing without a valid signature.
 */
@ConfigMapping(prefix = "route.producer-signing")
public interface ProducerSigningConfig {

    /**
     * Base64 PKCS#8 Ed25519 private key ({@code ROUTE_PRODUCER_SIGNING_PRIVATE_KEY}). Required: only
     * the {@code dev} and {@code test} profiles have a local key.
     */
    String privateKey();

    /** Id of the key, sent in the {@code route-signature-key} header ({@code ROUTE_PRODUCER_SIGNING_KEY_ID}). */
    @WithDefault("recovery-k1")
    String keyId();
}
