package io.routegateway.core.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A static bearer token ({@code Authorization: Bearer <token>}): the admin token of state-service and
 * the internal token between the services. The check compares SHA-256 digests of the presented and
 * the expected token with {@link MessageDigest#isEqual}, so its time depends neither on where the two
 * first differ nor on the expected token's length. Neither token is ever part of a result or message.
 */
public final class BearerToken {

    /** The scheme, matched case-insensitively as RFC 9110 requires. */
    public static final String SCHEME = "Bearer";

    private static final String PREFIX = SCHEME + " ";

    /** What an {@code Authorization} header amounts to. */
    public enum Check {
        /** No header, or another scheme than Bearer. */
        MISSING,
        /** A bearer token that is not the expected one. */
        INVALID,
        /** The expected token. */
        VALID
    }

    private BearerToken() {}

    /** The {@code Authorization} header value that presents {@code token}. */
    public static String header(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("a bearer token is required");
        }
        return PREFIX + token;
    }

    /**
     * Checks an {@code Authorization} header against the expected token. Surrounding whitespace of the
     * presented token is ignored; a blank expected token accepts nothing.
     */
    public static Check check(String authorizationHeader, String expectedToken) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return Check.MISSING;
        }
        if (expectedToken == null || expectedToken.isBlank()) {
            return Check.INVALID;
        }
        String presented = authorizationHeader.substring(PREFIX.length()).strip();
        return MessageDigest.isEqual(sha256(presented), sha256(expectedToken)) ? Check.VALID : Check.INVALID;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
