package io.routegateway.state.admin;

import java.util.function.UnaryOperator;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.crypto.SecretBox;
import io.routegateway.state.repository.CredentialEntity;

/**
 * Upstreams sometimes quote the key they rejected in their error body, and those bodies are stored
 * as failure details. Every failure text the admin API returns passes through the redactor of its
 * credential, which replaces the credential's own secret with {@value #MASK}.
 */
@ApplicationScoped
public class SecretRedactor {

    static final String MASK = "[redacted]";
    /** Shorter secrets are not searched for: they would mask ordinary words. */
    static final int MIN_SECRET_LENGTH = 8;

    private final SecretBox secretBox;

    SecretRedactor(SecretBox secretBox) {
        this.secretBox = secretBox;
    }

    /** The redactor for one credential; identity when its secret cannot be opened (e.g. a rotated key). */
    public UnaryOperator<String> forCredential(CredentialEntity row) {
        String secret;
        try {
            secret = secretBox.open(row.id, row.encryptedSecret);
        } catch (IllegalArgumentException e) {
            return UnaryOperator.identity();
        }
        if (secret.length() < MIN_SECRET_LENGTH) {
            return UnaryOperator.identity();
        }
        return text -> text == null ? null : text.replace(secret, MASK);
    }
}
