package io.routegateway.core.failure;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** The semantic-failure fingerprint that decides whether a streak continues. */
public final class Fingerprint {

    private Fingerprint() {}

    /**
     * {@code sha256("semantic_response_failed|{status or none}|{normalized message}")} in lower-case
     * hex, where the message is split on whitespace, rejoined with single spaces and lower-cased.
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
        String trimmed = message.strip();
        if (trimmed.isEmpty()) {
            return "";
        }
        return String.join(" ", trimmed.split("\\s+")).toLowerCase(Locale.ROOT);
    }
}
