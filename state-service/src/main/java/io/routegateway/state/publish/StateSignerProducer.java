package io.routegateway.state.publish;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.routegateway.core.crypto.StateSigner;

/** The signer of the state topics; a missing or malformed key fails start-up. */
public class StateSignerProducer {

    @Produces
    @Singleton
    StateSigner stateSigner(StateSigningConfig config) {
        return StateSigner.fromBase64Pkcs8(config.keyId(), config.privateKey());
    }
}
