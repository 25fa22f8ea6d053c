package io.routegateway.state.publish;

import java.time.Instant;
import java.util.Optional;

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

    /**
     * The end of this key's cryptoperiod ({@code ROUTE_STATE_SIGNING_NOT_AFTER}, an ISO-8601 instant such as
     * {@code 2027-06-30T00:00:00Z}): an Ed25519 key carries no date of its own, so the operator states by when
     * it is to be rotated. Exported as {@code route_key_material_expiry_seconds{material="state_signing_key"}},
     * which the alerts watch; unset, no series.
     */
    Optional<Instant> notAfter();
}
