package io.routegateway.state.pool;

import java.util.function.UnaryOperator;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.failure.SecretMask;
import io.routegateway.state.repository.CredentialEntity;

/**
 * Upstreams sometimes quote the key they rejected in their error body. Gateways and recovery-service
 * mask it before an event is published ({@link SecretMask}); the admin API masks every failure text
 * it returns once more, for rows written before that or under a secret that has since been replaced.
 */
@ApplicationScoped
public class SecretRedactor {

    private final SecretBox secretBox;

    SecretRedactor(SecretBox secretBox) {
        this.secretBox = secretBox;
    }

    /** The redactor for one credential; identity when its secret cannot be opened (e.g. a rotated key). */
    public UnaryOperator<String> forCredential(CredentialEntity row) {
        String secret;
        try {
            secret = SecretBox.isV1(row.encryptedSecret)
                    ? secretBox.openV1(row.id, row.encryptedSecret)
                    : secretBox.open(row.secretBinding(), row.encryptedSecret);
        } catch (IllegalArgumentException e) {
            return UnaryOperator.identity();
        }
        return text -> SecretMask.apply(text, secret);
    }
}
