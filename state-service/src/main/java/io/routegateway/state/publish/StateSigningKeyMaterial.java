package io.routegateway.state.publish;

import java.time.Instant;
import java.util.List;

import jakarta.inject.Singleton;

import io.routegateway.common.keys.KeyMaterialSource;

/** The state-signing key's planned rotation date, watched like a certificate's end (see {@link StateSigningConfig#notAfter}). */
@Singleton
class StateSigningKeyMaterial implements KeyMaterialSource {

    private final StateSigningConfig config;

    StateSigningKeyMaterial(StateSigningConfig config) {
        this.config = config;
    }

    @Override
    public String material() {
        return "state_signing_key";
    }

    @Override
    public List<Instant> notAfters() {
        return config.notAfter().map(List::of).orElse(List.of());
    }
}
