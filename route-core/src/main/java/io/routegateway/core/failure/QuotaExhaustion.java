package io.routegateway.core.failure;

import java.util.List;
import java.util.Locale;

/**
 * Recognises quota exhaustion, the deterministic semantic failure that flips an account to error on
 * the first occurrence. Two rules:
 *
 * <ol>
 *   <li>the normalized {@code error.code} (lower-case, {@code _}, {@code -} and spaces removed)
 *       contains {@code insufficientquota}, {@code quotaexhausted} or {@code usageexhausted}, or the
 *       message contains (any case) one of {@link #MESSAGE_PHRASES};
 *   <li>{@code error.type} is {@code new_api_error} (any case) and the message begins with {@code
 *       用户额度不足} — new-api's own spent balance, often sent as 401/403. Only the type inside the
 *       error object counts: the message alone is not safe (the same gateway relays an upstream's
 *       own 用户额度不足 verbatim) and a top-level {@code "type":"error"} names the envelope.
 * </ol>
 *
 * The rules read only the upstream's own error fields, and a code, phrase or prefix that the
 * client itself sent does not count ({@link ClientEcho}): upstreams echo request text in errors.
 * Which statuses may carry the verdict at all is {@link OutcomeClassifier}'s decision.
 */
public final class QuotaExhaustion {

    public static final List<String> CODE_MARKERS = List.of("insufficientquota", "quotaexhausted", "usageexhausted");

    /** Matched case-insensitively as substrings of the message. */
    public static final List<String> MESSAGE_PHRASES =
            List.of("额度已耗尽", "配额耗尽", "quota exhausted", "insufficient quota", "quota has been exhausted");

    public static final String NEW_API_ERROR_TYPE = "new_api_error";
    public static final String NEW_API_BALANCE_PREFIX = "用户额度不足";

    private QuotaExhaustion() {}

    /**
     * Both rules over extracted fields.
     *
     * @param errorCode {@code error.code}, may be null
     * @param errorType the {@code type} inside the error object (never the envelope's), may be null
     * @param message the error message, may be null
     */
    public static boolean matches(String errorCode, String errorType, String message) {
        return matches(errorCode, errorType, message, ClientEcho.NONE);
    }

    /**
     * Both rules over extracted fields, ignoring what the client sent.
     *
     * @param echo the request's client text: a marker found there is not evidence
     */
    public static boolean matches(String errorCode, String errorType, String message, ClientEcho echo) {
        return matchesCodeOrPhrase(errorCode, message, echo) || matchesNewApiBalance(errorType, message, echo);
    }

    /** Rule 1: code markers or a fixed message phrase. */
    public static boolean matchesCodeOrPhrase(String errorCode, String message) {
        return matchesCodeOrPhrase(errorCode, message, ClientEcho.NONE);
    }

    static boolean matchesCodeOrPhrase(String errorCode, String message, ClientEcho echo) {
        if (errorCode != null) {
            String normalized = normalizeCode(errorCode);
            for (String marker : CODE_MARKERS) {
                if (normalized.contains(marker) && !echo.sentCode(marker)) {
                    return true;
                }
            }
        }
        if (message != null) {
            String lower = message.toLowerCase(Locale.ROOT);
            for (String phrase : MESSAGE_PHRASES) {
                if (lower.contains(phrase) && !echo.sent(phrase)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Rule 2: new-api's own spent-balance envelope. */
    public static boolean matchesNewApiBalance(String errorType, String message) {
        return matchesNewApiBalance(errorType, message, ClientEcho.NONE);
    }

    static boolean matchesNewApiBalance(String errorType, String message, ClientEcho echo) {
        return errorType != null
                && NEW_API_ERROR_TYPE.equalsIgnoreCase(errorType.strip())
                && message != null
                && message.stripLeading().startsWith(NEW_API_BALANCE_PREFIX)
                && !echo.sent(NEW_API_BALANCE_PREFIX);
    }

    /** Applies both rules to a failure the semantic detector found in a 2xx body. */
    public static boolean matches(SemanticResult.Failure failure) {
        return matches(failure, ClientEcho.NONE);
    }

    /** Applies both rules to a 2xx failure, ignoring what the client sent. */
    public static boolean matches(SemanticResult.Failure failure, ClientEcho echo) {
        return failure != null && matches(failure.errorCode(), failure.errorType(), failure.message(), echo);
    }

    /**
     * Applies both rules to a body already known to be an error (a non-2xx response, e.g. new-api's
     * 401/403): the error object's fields when it is JSON, the raw text as the message otherwise. A
     * 2xx body must go through {@link SemanticFailureDetector} first: its text is content, not an
     * error message.
     */
    public static boolean inErrorBody(String body) {
        ErrorFields fields = ErrorFields.fromErrorBody(body);
        return matches(fields.code(), fields.type(), fields.message());
    }

    /** Lower-case with {@code _}, {@code -} and spaces removed: {@code Insufficient_Quota} → {@code insufficientquota}. */
    public static String normalizeCode(String code) {
        StringBuilder out = new StringBuilder(code.length());
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c != '_' && c != '-' && c != ' ') {
                out.append(c);
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }
}
