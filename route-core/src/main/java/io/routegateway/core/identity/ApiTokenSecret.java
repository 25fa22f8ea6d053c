package io.routegateway.core.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * An API token's secret: {@code rgt-} and 43 url-safe characters (256 random bits), stored only as
 * its SHA-256 (hex). A high-entropy random token needs no slow hash; the stored digests are compared
 * with {@link MessageDigest#isEqual}.
 */
public final class ApiTokenSecret {

    public static final String PREFIX = "rgt-";
    private static final int RANDOM_BYTES = 32;
    /** Shown in listings: the prefix and the first four random characters. */
    public static final int DISPLAY_PREFIX_LENGTH = PREFIX.length() + 4;
    /** Longer presented tokens are refused before any hashing or lookup. */
    public static final int MAX_LENGTH = 128;

    private ApiTokenSecret() {}

    public static String generate(SecureRandom random) {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether {@code presented} could be an API token at all (prefix, length, characters). */
    public static boolean looksLikeToken(String presented) {
        return presented != null
                && presented.startsWith(PREFIX)
                && presented.length() <= MAX_LENGTH
                && presented.substring(PREFIX.length()).matches("[A-Za-z0-9_-]{16,}");
    }

    /** Hex SHA-256 of the token. */
    public static String hash(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /** Constant-time comparison of two hex digests. */
    public static boolean sameHash(String a, String b) {
        return a != null
                && b != null
                && MessageDigest.isEqual(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
    }
}
