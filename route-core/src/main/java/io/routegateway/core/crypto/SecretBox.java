package io.routegateway.core.crypto;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts upstream secrets at rest and on the state topic with AES-256-GCM under the shared
 * secret-encryption key. Sealed form: {@code v2:<base64 nonce>:<base64 ciphertext+tag>}, with the
 * {@link Binding} (credential id, platform and base URL: the fields that decide where the secret is
 * sent) as associated data. A sealed secret copied onto another credential, or left in place while
 * someone edits the credential's {@code base_url} or platform in the database or on the topic, does
 * not open, so it is never sent to a host its owner did not choose.
 *
 * <p>The older {@code v1:} form bound the credential id alone. {@link #open} refuses it unless the
 * box was built to accept it (an upgrade window); state-service re-seals v1 values at start-up with
 * {@link #openV1} and {@link #seal}.
 */
public final class SecretBox {

    static final String V1 = "v1";
    static final String V2 = "v2";
    private static final byte[] V2_CONTEXT = "route-secret.v2".getBytes(StandardCharsets.UTF_8);
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random;
    private final boolean acceptV1;

    /**
     * What a sealed secret is bound to.
     *
     * @param platform the platform's wire name ({@code Platform.wire()})
     * @param baseUrl the upstream base URL exactly as stored and published
     */
    public record Binding(String credentialId, String platform, String baseUrl) {

        public Binding {
            if (credentialId == null || platform == null || baseUrl == null) {
                throw new IllegalArgumentException("a secret binding needs credential id, platform and base URL");
            }
        }

        /** Length-prefixed UTF-8 fields, so no two different bindings encode alike. */
        byte[] associatedData() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(V2_CONTEXT);
            for (String field : new String[] {credentialId, platform, baseUrl}) {
                byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
                out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
                out.writeBytes(bytes);
            }
            return out.toByteArray();
        }
    }

    private SecretBox(byte[] key, SecureRandom random, boolean acceptV1) {
        this.key = new SecretKeySpec(key, "AES");
        this.random = random;
        this.acceptV1 = acceptV1;
    }

    /**
     * A box that opens only {@code v2:} values.
     *
     * @param base64Key base64 of exactly 32 bytes
     * @throws IllegalArgumentException for a missing or malformed key (the message never echoes it)
     */
    public static SecretBox fromBase64Key(String base64Key, SecureRandom random) {
        return fromBase64Key(base64Key, random, false);
    }

    /** @param acceptV1 whether {@link #open} also opens {@code v1:} values (bound to the id alone) */
    public static SecretBox fromBase64Key(String base64Key, SecureRandom random, boolean acceptV1) {
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
        return new SecretBox(key, random, acceptV1);
    }

    /** Seals in the {@code v2:} form under {@code binding}. */
    public String seal(Binding binding, String plaintext) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(binding.associatedData());
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            Base64.Encoder encoder = Base64.getEncoder();
            return V2 + ":" + encoder.encodeToString(nonce) + ":" + encoder.encodeToString(sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is required by every Java platform", e);
        }
    }

    /**
     * @throws IllegalArgumentException when the value is malformed, tampered, sealed under another
     *     binding, or in the {@code v1:} form while this box does not accept it
     */
    public String open(Binding binding, String sealed) {
        String[] parts = parts(sealed);
        if (V1.equals(parts[0])) {
            if (!acceptV1) {
                throw new IllegalArgumentException("sealed secret is in the v1 form, which is not accepted");
            }
            return decrypt(parts, binding.credentialId().getBytes(StandardCharsets.UTF_8));
        }
        return decrypt(parts, binding.associatedData());
    }

    /** Whether the value is in the {@code v1:} form and should be re-sealed with {@link #seal}. */
    public static boolean isV1(String sealed) {
        return sealed != null && sealed.startsWith(V1 + ":");
    }

    /**
     * Opens a {@code v1:} value (bound to the credential id alone) so it can be re-sealed; whatever
     * this box accepts in {@link #open}.
     *
     * @throws IllegalArgumentException when it is not a v1 value or does not open
     */
    public String openV1(String credentialId, String sealed) {
        String[] parts = parts(sealed);
        if (!V1.equals(parts[0])) {
            throw new IllegalArgumentException("not a v1 sealed secret");
        }
        return decrypt(parts, credentialId.getBytes(StandardCharsets.UTF_8));
    }

    private static String[] parts(String sealed) {
        String[] parts = sealed == null ? new String[0] : sealed.split(":");
        if (parts.length != 3 || !(V1.equals(parts[0]) || V2.equals(parts[0]))) {
            throw new IllegalArgumentException("not a sealed secret");
        }
        return parts;
    }

    private String decrypt(String[] parts, byte[] associatedData) {
        try {
            Base64.Decoder decoder = Base64.getDecoder();
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, decoder.decode(parts[1])));
            cipher.updateAAD(associatedData);
            return new String(cipher.doFinal(decoder.decode(parts[2])), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("sealed secret does not open with the configured key and binding");
        }
    }
}
