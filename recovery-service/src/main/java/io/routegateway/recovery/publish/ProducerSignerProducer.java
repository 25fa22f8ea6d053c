package io.routegateway.recovery.publish;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;

/** The signer of what recovery-service sends to state-service; a missing or malformed key fails start-up. */
public class ProducerSignerProducer {

    @Produces
    @Singleton
    StateSigner producerSigner(ProducerSigningConfig config) {
        return StateSigner.fromBase64Pkcs8(StateSignature.Domain.PRODUCER, config.keyId(), config.privateKey());
    }
}
