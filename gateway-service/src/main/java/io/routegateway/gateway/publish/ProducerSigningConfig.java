package io.routegateway.gateway.publish;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * This gateway's key for signing what it sends to state-service ({@code route.outcomes}, {@code
 * route.usage}), under {@code route.producer-signing.*}. state-service holds the matching public key
 * under the same id ({@code route.producer-signing.public-keys}) and applies nothing without a
 * valid signature, so a compromised gateway pod can forge only what this key signs, and
 * state-service counts what each key id signed.
 */
@ConfigMapping(prefix = "route.producer-signing")
public interface ProducerSigningConfig {

    /**
     * Base64 PKCS#8 Ed25519 private key ({@code ROUTE_PRODUCER_SIGNING_PRIVATE_KEY}; the body of
     * {@code openssl genpkey -algorithm ed25519}). Required: only the {@code dev} and {@code test}
     * profiles have a local key, and the gateway does not start without one.
     */
    String privateKey();

    /**
     * Id of the key, sent in the {@code route-signature-key} header ({@code
     * ROUTE_PRODUCER_SIGNING_KEY_ID}); it names the signer in state-service's metrics and logs.
     */
    @WithDefault("gateway-k1")
    String keyId();
}
