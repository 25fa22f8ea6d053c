package io.routegateway.gateway.view;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.routegateway.core.crypto.StateVerifier;

/** The verifier of the state topics; a missing or malformed key list fails start-up. */
public class StateVerifierProducer {

    @Produces
    @Singleton
    StateVerifier stateVerifier(StateSigningConfig config) {
        return StateVerifier.fromSpec(config.publicKeys());
    }
}
