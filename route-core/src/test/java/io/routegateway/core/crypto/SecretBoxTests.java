package io.routegateway.core.crypto;

import java.security.SecureRandom;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecretBoxTests {

    static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    final SecretBox box = SecretBox.fromBase64Key(KEY, new SecureRandom());

    @Test
    void sealedSecretsOpenAndNeverContainThePlaintext() {
        String sealed = box.seal("cred-1", "sk-live-very-secret");
        assertThat(sealed).startsWith("v1:").doesNotContain("sk-live-very-secret");
        assertThat(box.open("cred-1", sealed)).isEqualTo("sk-live-very-secret");
    }

    @Test
    void aSecretSealedForOneCredentialDoesNotOpenForAnother() {
        String sealed = box.seal("cred-1", "sk-live");
        assertThatThrownBy(() -> box.open("cred-2", sealed)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tamperingIsDetected() {
        String[] parts = box.seal("cred-1", "sk-live").split(":");
        byte[] ciphertext = Base64.getDecoder().decode(parts[2]);
        ciphertext[0] ^= 0x01; // one flipped bit in the ciphertext must fail the GCM tag
        String tampered = parts[0] + ":" + parts[1] + ":" + Base64.getEncoder().encodeToString(ciphertext);
        assertThatThrownBy(() -> box.open("cred-1", tampered)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badKeysAreRejectedWithoutEchoingThem() {
        assertThatThrownBy(() -> SecretBox.fromBase64Key("", new SecureRandom()))
                .hasMessageContaining("not configured");
        assertThatThrownBy(() -> SecretBox.fromBase64Key("c2hvcnQ=", new SecureRandom()))
                .hasMessageContaining("32 bytes")
                .hasMessageNotContaining("c2hvcnQ=");
    }
}
