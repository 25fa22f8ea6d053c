package io.routegateway.core.crypto;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Verifies signed records against the configured Ed25519 public keys ({@link StateSignature}): the
 * gateways verify the state topics ({@link StateSignature.Domain#STATE}), state-service verifies
 * what the producing services send it ({@link StateSignature.Domain#PRODUCER}).
 * Several keys may be configured at once, each under its id, so a key can be rotated without a
 * window in which readers refuse what state-service publishes.
 */
public final class StateVerifier {

    /** What a record's signature headers say about it. */
    public enum Result {
        VALID,
        /** One or both headers are absent. */
        MISSING,
        /** The key id names no configured public key. */
        UNKNOWN_KEY,
        /** The signature is malformed or does not match topic, key and value. */
        INVALID
    }

    private final StateSignature.Domain domain;
    private final Map<String, PublicKey> keys;

    private StateVerifier(StateSignature.Domain domain, Map<String, PublicKey> keys) {
        this.domain = domain;
        this.keys = Map.copyOf(keys);
    }

    /** A verifier of the state topics ({@link StateSignature.Domain#STATE}). */
    public static StateVerifier fromSpec(String spec) {
        return fromSpec(StateSignature.Domain.STATE, spec);
    }

    /**
     * @param domain what the signatures must speak for
     * @param spec comma-separated {@code keyId=base64 X.509 (SubjectPublicKeyInfo) Ed25519 public
     *     key}, e.g. the body of {@code openssl pkey -pubout}
     * @throws IllegalArgumentException when the list is empty or an entry is malformed
     */
    public static StateVerifier fromSpec(StateSignature.Domain domain, String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("no " + domain.label() + " public key is configured");
        }
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        for (String entry : spec.split(",")) {
            String trimmed = entry.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int equals = trimmed.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("a " + domain.label() + " public key entry is not keyId=base64");
            }
            String keyId = trimmed.substring(0, equals).strip();
            requireKeyId(domain, keyId);
            if (keys.containsKey(keyId)) {
                throw new IllegalArgumentException(domain.label() + " key id " + keyId + " is configured twice");
            }
            keys.put(
                    keyId,
                    publicKey(domain, keyId, trimmed.substring(equals + 1).strip()));
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no " + domain.label() + " public key is configured");
        }
        return new StateVerifier(domain, keys);
    }

    public Set<String> keyIds() {
        return keys.keySet();
    }

    /**
     * @param value null for a tombstone
     * @param keyId the {@value StateSignature#KEY_ID_HEADER} header, null when absent
     * @param signature the {@value StateSignature#SIGNATURE_HEADER} header, null when absent
     */
    public Result verify(String topic, String key, String value, String keyId, String signature) {
        if (keyId == null || signature == null) {
            return Result.MISSING;
        }
        PublicKey publicKey = keys.get(keyId);
        if (publicKey == null) {
            return Result.UNKNOWN_KEY;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(publicKey);
            verifier.update(StateSignature.message(domain, topic, key, value));
            return verifier.verify(Base64.getDecoder().decode(signature)) ? Result.VALID : Result.INVALID;
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return Result.INVALID;
        }
    }

    public StateSignature.Domain domain() {
        return domain;
    }

    static void requireKeyId(StateSignature.Domain domain, String keyId) {
        if (keyId == null || !keyId.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("a " + domain.label() + " key id must be 1-64 of A-Z a-z 0-9 . _ -");
        }
    }

    private static PublicKey publicKey(StateSignature.Domain domain, String keyId, String base64) {
        try {
            byte[] der = Base64.getDecoder().decode(base64);
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    domain.label() + " public key " + keyId + " is not a base64 X.509 Ed25519 key");
        }
    }
}
