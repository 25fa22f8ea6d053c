package io.routegateway.core.failure;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/** The semantic-failure fingerprint that decides whether a streak continues. */
public final class Fingerprint {

    /**
     * Runs of Unicode whitespace (the {@code White_Space} property, as the spec's {@code
     * split_whitespace} uses): besides ASCII, U+00A0, U+1680, U+2000–U+200A, U+2028/9, U+202F,
     * U+205F and U+3000 (relays echo CJK text with ideographic spaces). Java's {@code \s} and
     * {@code String.strip} both miss some of them.
     */
    private static final Pattern WHITESPACE = Pattern.compile("\\p{IsWhite_Space}+");

    private Fingerprint() {}

    /**
     * {@code sha256("semantic_response_failed|{status or none}|{normalized message}")} in lower-case
     * hex, where the message is split on Unicode whitespace, rejoined with single spaces and
     * lower-cased.
     */
    public static String of(Integer responseStatus, String message) {
        String status = responseStatus == null ? "none" : Integer.toString(responseStatus);
        String input = "semantic_response_failed|" + status + "|" + normalize(message);
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha256.digest(input.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    static String normalize(String message) {
        if (message == null) {
            return "";
        }
        StringBuilder joined = new StringBuilder(message.length());
        for (String word : WHITESPACE.split(message)) {
            if (!word.isEmpty()) {
                if (!joined.isEmpty()) {
                    joined.append(' ');
                }
                joined.append(word);
            }
        }
        return joined.toString().toLowerCase(Locale.ROOT);
    }
}
