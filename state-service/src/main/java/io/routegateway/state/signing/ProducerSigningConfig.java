package io.routegateway.state.signing;

import io.smallrye.config.ConfigMapping;

/**
 * The producers' public keys, under {@code route.producer-signing.*}: what gateway-service and
 * recovery-service send on {@code route.outcomes} and {@code route.usage} is applied only when one of
 * these keys signed it ({@link ProducerSignatures}).
 */
@ConfigMapping(prefix = "route.producer-signing")
public interface ProducerSigningConfig {

    /**
     * Comma-separated {@code keyId=base64 X.509 Ed25519 public key} ({@code
     * ROUTE_PRODUCER_SIGNING_PUBLIC_KEYS}; the body of {@code openssl pkey -pubout}): one entry per
     * producer key, each producing service (gateway, recovery) with its own id, and two of a service
     * while its key is rotated. Required: only the {@code dev} and {@code test} profiles have local
     * keys; without one state-service does not start, so it never applies an unsigned outcome or
     * usage record.
     */
    String publicKeys();
}
