package io.routegateway.gateway.forward;

import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialSnapshot;

/**
 * Opened upstream secrets, so a request does not pay an AES-GCM decryption per attempt. An entry is
 * reused only while the credential's sealed secret is unchanged. Never logged.
 */
@Singleton
public class SecretCache {

    private final SecretBox box;
    private final ConcurrentHashMap<String, Opened> opened = new ConcurrentHashMap<>();

    SecretCache(SecretBox box) {
        this.box = box;
    }

    /** The clear-text secret; throws when it cannot be opened (wrong key, tampered). */
    public String secretOf(CredentialSnapshot credential) {
        Opened cached = opened.get(credential.credentialId());
        if (cached != null && cached.sealed.equals(credential.encryptedSecret())) {
            return cached.plaintext;
        }
        String plaintext = box.open(credential.credentialId(), credential.encryptedSecret());
        opened.put(credential.credentialId(), new Opened(credential.encryptedSecret(), plaintext));
        return plaintext;
    }

    private record Opened(String sealed, String plaintext) {
        @Override
        public String toString() {
            return "Opened[secret hidden]";
        }
    }
}
