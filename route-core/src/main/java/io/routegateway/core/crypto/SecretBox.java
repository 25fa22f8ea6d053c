package io.routegateway.core.crypto;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts upstream secrets at rest and on the state topic with AES-256-GCM under the shared
 * secret-encryption key. Sealed form: {@code v1:<base64 nonce>:<base64 ciphertext+tag>}; the
 * credential id is bound as associated data, so a sealed secret copied onto another credential
 * does not open.
 */
public final class SecretBox {

    private static final String PREFIX = "v1";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random;

    private SecretBox(byte[] key, SecureRandom random) {
        this.key = new SecretKeySpec(key, "AES");
        this.random = random;
    }

    /**
     * @param base64Key base64 of exactly 32 bytes
     * @throws IllegalArgumentException for a missing or malformed key (the message never echoes it)
     */
    public static SecretBox fromBase64Key(String base64Key, SecureRandom random) {
        if (base64Key == null || base64Key.isBlank()) {
            throw new IllegalArgumentException("secret encryption key is not configured");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64Key.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("secret encryption key is not valid base64");
        }
        if (key.length != 32) {
            throw new IllegalArgumentException("secret encryption key must be 32 bytes, got " + key.length);
        }
        return new SecretBox(key, random);
    }

    public String seal(String credentialId, String plaintext) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(credentialId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            Base64.Encoder encoder = Base64.getEncoder();
            return PREFIX + ":" + encoder.encodeToString(nonce) + ":" + encoder.encodeToString(sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is required by every Java platform", e);
        }
    }

    /** @throws IllegalArgumentException when the value is malformed, tampered or sealed for another id */
    public String open(String credentialId, String sealed) {
        String[] parts = sealed == null ? new String[0] : sealed.split(":");
        if (parts.length != 3 || !PREFIX.equals(parts[0])) {
            throw new IllegalArgumentException("not a sealed secret");
        }
        try {
            Base64.Decoder decoder = Base64.getDecoder();
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, decoder.decode(parts[1])));
            cipher.updateAAD(credentialId.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(decoder.decode(parts[2])), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("sealed secret does not open with the configured key");
        }
    }
}
