package io.routegateway.core.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * AccessKey hashing. Keys are stored and published only as the lowercase hex SHA-256 of the
 * plaintext ({@code AccessKeySnapshot.keyHash}); the plaintext is shown once, at creation.
 */
public final class AccessKeys {

    private static final HexFormat HEX = HexFormat.of();

    private AccessKeys() {}

    /** Lowercase hex SHA-256 of the UTF-8 bytes of {@code plaintext}. */
    public static String hash(String plaintext) {
        if (plaintext == null) {
            throw new IllegalArgumentException("plaintext is required");
        }
        return HEX.formatHex(sha256().digest(plaintext.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Whether {@code plaintext} hashes to {@code storedHash}, compared in constant time (the time
     * depends only on the lengths, never on where the two hashes first differ).
     */
    public static boolean matches(String plaintext, String storedHash) {
        if (plaintext == null || storedHash == null) {
            return false;
        }
        return constantTimeEquals(hash(plaintext), storedHash.toLowerCase(Locale.ROOT));
    }

    /**
     * Constant-time equality of two hashes (or any two strings of equal length): {@link
     * MessageDigest#isEqual} over their UTF-8 bytes. Null equals nothing.
     */
    public static boolean constantTimeEquals(String left, String right) {
        if (left == null || right == null) {
            return false;
        }
        return MessageDigest.isEqual(left.getBytes(StandardCharsets.UTF_8), right.getBytes(StandardCharsets.UTF_8));
    }

    /** The canonical form a stored hash is indexed under (lowercase, trimmed). */
    public static String normalizeHash(String storedHash) {
        return storedHash == null ? null : storedHash.trim().toLowerCase(Locale.ROOT);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
