package io.routegateway.core.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** Signs state-topic records with state-service's Ed25519 private key ({@link StateSignature}). */
public final class StateSigner {

    private final String keyId;
    private final PrivateKey key;

    private StateSigner(String keyId, PrivateKey key) {
        this.keyId = keyId;
        this.key = key;
    }

    /**
     * @param keyId the id readers know the matching public key by
     * @param base64Pkcs8 base64 of the PKCS#8 DER encoding (the body of {@code openssl genpkey
     *     -algorithm ed25519})
     * @throws IllegalArgumentException when either is missing or the key is not an Ed25519 private
     *     key (the message never echoes the key)
     */
    public static StateSigner fromBase64Pkcs8(String keyId, String base64Pkcs8) {
        StateVerifier.requireKeyId(keyId);
        if (base64Pkcs8 == null || base64Pkcs8.isBlank()) {
            throw new IllegalArgumentException("state signing private key is not configured");
        }
        try {
            byte[] der = Base64.getDecoder().decode(base64Pkcs8.strip());
            return new StateSigner(
                    keyId, KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der)));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw new IllegalArgumentException("state signing private key is not a base64 PKCS#8 Ed25519 key");
        }
    }

    public String keyId() {
        return keyId;
    }

    /** The base64 signature of one record; {@code value} null for a tombstone. */
    public String sign(String topic, String key, String value) {
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(this.key);
            signature.update(StateSignature.message(topic, key, value));
            return Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is required by every Java 15+ platform", e);
        }
    }

    @Override
    public String toString() {
        return "StateSigner[keyId=" + keyId + "]";
    }
}
