package io.routegateway.core.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * Signs records with an Ed25519 private key ({@link StateSignature}): state-topic records with
 * state-service's key ({@link StateSignature.Domain#STATE}), or what a producing service sends to
 * state-service with that service's own key ({@link StateSignature.Domain#PRODUCER}).
 */
public final class StateSigner {

    private final StateSignature.Domain domain;
    private final String keyId;
    private final PrivateKey key;

    private StateSigner(StateSignature.Domain domain, String keyId, PrivateKey key) {
        this.domain = domain;
        this.keyId = keyId;
        this.key = key;
    }

    /** A signer of the state topics ({@link StateSignature.Domain#STATE}). */
    public static StateSigner fromBase64Pkcs8(String keyId, String base64Pkcs8) {
        return fromBase64Pkcs8(StateSignature.Domain.STATE, keyId, base64Pkcs8);
    }

    /**
     * @param domain what the signatures speak for
     * @param keyId the id readers know the matching public key by
     * @param base64Pkcs8 base64 of the PKCS#8 DER encoding (the body of {@code openssl genpkey
     *     -algorithm ed25519})
     * @throws IllegalArgumentException when either is missing or the key is not an Ed25519 private
     *     key (the message never echoes the key)
     */
    public static StateSigner fromBase64Pkcs8(StateSignature.Domain domain, String keyId, String base64Pkcs8) {
        StateVerifier.requireKeyId(domain, keyId);
        if (base64Pkcs8 == null || base64Pkcs8.isBlank()) {
            throw new IllegalArgumentException(domain.label() + " private key is not configured");
        }
        try {
            byte[] der = Base64.getDecoder().decode(base64Pkcs8.strip());
            return new StateSigner(
                    domain, keyId, KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der)));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw new IllegalArgumentException(domain.label() + " private key is not a base64 PKCS#8 Ed25519 key");
        }
    }

    public StateSignature.Domain domain() {
        return domain;
    }

    public String keyId() {
        return keyId;
    }

    /** The base64 signature of one record; {@code value} null for a tombstone. */
    public String sign(String topic, String key, String value) {
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(this.key);
            signature.update(StateSignature.message(domain, topic, key, value));
            return Base64.getEncoder().encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is required by every Java 15+ platform", e);
        }
    }

    @Override
    public String toString() {
        return "StateSigner[" + domain + ", keyId=" + keyId + "]";
    }
}
