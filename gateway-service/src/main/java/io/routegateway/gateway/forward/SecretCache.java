package io.routegateway.gateway.forward;

import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialSnapshot;

/**
 * Opened upstream secrets, so a request does not pay an AES-GCM decryption per attempt. The secret
 * opens only under the binding of the snapshot it came with (credential id, platform, base URL), so a
 * snapshot that points an existing sealed secret at another host cannot use it. An entry is reused
 * only while the sealed secret and its binding are unchanged. Never logged.
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
        SecretBox.Binding binding = credential.secretBinding();
        Opened cached = opened.get(credential.credentialId());
        if (cached != null && cached.sealed.equals(credential.encryptedSecret()) && cached.binding.equals(binding)) {
            return cached.plaintext;
        }
        String plaintext = box.open(binding, credential.encryptedSecret());
        opened.put(credential.credentialId(), new Opened(credential.encryptedSecret(), binding, plaintext));
        return plaintext;
    }

    private record Opened(String sealed, SecretBox.Binding binding, String plaintext) {
        @Override
        public String toString() {
            return "Opened[secret hidden]";
        }
    }
}
