package io.routegateway.common.crypto;

import java.security.SecureRandom;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.routegateway.common.config.RouteConfig;
import io.routegateway.core.crypto.SecretBox;

/** One {@link SecretBox} per service under the configured key; a bad key fails start-up. */
public class SecretBoxProducer {

    @Produces
    @Singleton
    SecretBox secretBox(RouteConfig config) {
        return SecretBox.fromBase64Key(config.secretEncryptionKey(), new SecureRandom(), config.secretAcceptV1());
    }
}
