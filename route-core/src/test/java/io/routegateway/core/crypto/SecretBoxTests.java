package io.routegateway.core.crypto;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecretBoxTests {

    static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    static final SecretBox.Binding CRED_1 = new SecretBox.Binding("cred-1", "openai", "https://api.example.com/v1");
    final SecretBox box = SecretBox.fromBase64Key(KEY, new SecureRandom());

    @Test
    void sealedSecretsOpenAndNeverContainThePlaintext() {
        String sealed = box.seal(CRED_1, "sk-live-very-secret");
        assertThat(sealed).startsWith("v2:").doesNotContain("sk-live-very-secret");
        assertThat(box.open(CRED_1, sealed)).isEqualTo("sk-live-very-secret");
    }

    @Test
    void aSecretMovedToAnotherCredentialDoesNotOpen() {
        String sealed = box.seal(CRED_1, "sk-live");
        assertThatThrownBy(
                        () -> box.open(new SecretBox.Binding("cred-2", "openai", "https://api.example.com/v1"), sealed))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aChangedBaseUrlDoesNotOpen() {
        String sealed = box.seal(CRED_1, "sk-live");
        assertThatThrownBy(() ->
                        box.open(new SecretBox.Binding("cred-1", "openai", "https://attacker.example/v1"), sealed))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aChangedPlatformDoesNotOpen() {
        String sealed = box.seal(CRED_1, "sk-live");
        assertThatThrownBy(
                        () -> box.open(new SecretBox.Binding("cred-1", "codex", "https://api.example.com/v1"), sealed))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fieldBoundariesAreBound() {
        // "ab" + "c" and "a" + "bc" must not authenticate alike
        String sealed = box.seal(new SecretBox.Binding("cred", "ab", "c"), "sk-live");
        assertThatThrownBy(() -> box.open(new SecretBox.Binding("cred", "a", "bc"), sealed))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tamperingIsDetected() {
        String[] parts = box.seal(CRED_1, "sk-live").split(":");
        byte[] ciphertext = Base64.getDecoder().decode(parts[2]);
        ciphertext[0] ^= 0x01; // one flipped bit in the ciphertext must fail the GCM tag
        String tampered = parts[0] + ":" + parts[1] + ":" + Base64.getEncoder().encodeToString(ciphertext);
        assertThatThrownBy(() -> box.open(CRED_1, tampered)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void v1ValuesOpenOnlyWhereAcceptedAndCanBeResealed() throws Exception {
        String v1 = sealV1("cred-1", "sk-old");
        assertThat(SecretBox.isV1(v1)).isTrue();
        assertThatThrownBy(() -> box.open(CRED_1, v1)).hasMessageContaining("v1");
        assertThat(SecretBox.fromBase64Key(KEY, new SecureRandom(), true).open(CRED_1, v1))
                .isEqualTo("sk-old");

        String resealed = box.seal(CRED_1, box.openV1("cred-1", v1));
        assertThat(SecretBox.isV1(resealed)).isFalse();
        assertThat(box.open(CRED_1, resealed)).isEqualTo("sk-old");
        assertThatThrownBy(() -> box.openV1("cred-2", v1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void badKeysAreRejectedWithoutEchoingThem() {
        assertThatThrownBy(() -> SecretBox.fromBase64Key("", new SecureRandom()))
                .hasMessageContaining("not configured");
        assertThatThrownBy(() -> SecretBox.fromBase64Key("c2hvcnQ=", new SecureRandom()))
                .hasMessageContaining("32 bytes")
                .hasMessageNotContaining("c2hvcnQ=");
    }

    /** The v1 form as earlier releases wrote it: the credential id alone as associated data. */
    static String sealV1(String credentialId, String plaintext) throws Exception {
        byte[] nonce = new byte[12];
        new SecureRandom().nextBytes(nonce);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[32], "AES"), new GCMParameterSpec(128, nonce));
        cipher.updateAAD(credentialId.getBytes(StandardCharsets.UTF_8));
        byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
        return "v1:" + Base64.getEncoder().encodeToString(nonce) + ":"
                + Base64.getEncoder().encodeToString(sealed);
    }
}
