package io.routegateway.core.access;

import java.util.Locale;

/**
 * Whether a request path is under the admin API, decided the way the most lenient router could read
 * it, so that no spelling of {@code /admin} reaches a resource without the token check: percent
 * escapes decoded (repeatedly, as a proxy in front may decode once more), empty segments skipped
 * ({@code //admin}), a segment's matrix parameters dropped ({@code /admin;x/…}, {@code /admin%3B/…})
 * and case ignored ({@code /ADMIN}). Over-matching is harmless: it only asks for the token.
 */
public final class AdminPath {

    /** The admin API's first path segment. */
    public static final String SEGMENT = "admin";

    private static final int DECODE_ROUNDS = 3;

    private AdminPath() {}

    /** @param rawPath the request path as sent (percent escapes undecoded); null is no path */
    public static boolean isAdmin(String rawPath) {
        if (rawPath == null) {
            return false;
        }
        String path = rawPath;
        for (int round = 0; round < DECODE_ROUNDS && path.indexOf('%') >= 0; round++) {
            path = decode(path);
        }
        String first = firstSegment(path.replace('\\', '/'));
        int matrix = first.indexOf(';');
        if (matrix >= 0) {
            first = first.substring(0, matrix);
        }
        return first.trim().toLowerCase(Locale.ROOT).equals(SEGMENT);
    }

    private static String firstSegment(String path) {
        for (String segment : path.split("/")) {
            if (!segment.isEmpty()) {
                return segment;
            }
        }
        return "";
    }

    /** Percent escapes to bytes, read as UTF-8; a malformed escape stays as written. */
    private static String decode(String text) {
        byte[] out = new byte[text.length()];
        int length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < text.length() && hex(text.charAt(i + 1)) >= 0 && hex(text.charAt(i + 2)) >= 0) {
                out[length++] = (byte) (hex(text.charAt(i + 1)) * 16 + hex(text.charAt(i + 2)));
                i += 2;
            } else if (c < 0x80) {
                out[length++] = (byte) c;
            } else {
                // a non-ASCII character in a raw path: kept as one placeholder byte, never a letter of "admin"
                out[length++] = (byte) '?';
            }
        }
        return new String(out, 0, length, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
