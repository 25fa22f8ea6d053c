package io.routegateway.core.state;

/** How failure details are stored: bounded, so one huge upstream body cannot bloat a row. */
public final class FailureText {

    /** {@code last_failure_response_json} keeps at most this many characters, then "…". */
    public static final int MAX_RESPONSE_CHARS = 8192;
    /** {@code last_failure_message} is stored truncated to this many characters, then "…". */
    public static final int MAX_MESSAGE_CHARS = 2048;

    static final String ELLIPSIS = "…";

    private FailureText() {}

    public static String truncateResponse(String body) {
        return truncate(body, MAX_RESPONSE_CHARS);
    }

    public static String truncateMessage(String message) {
        return truncate(message, MAX_MESSAGE_CHARS);
    }

    static String truncate(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = max;
        // never split a surrogate pair
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + ELLIPSIS;
    }
}
