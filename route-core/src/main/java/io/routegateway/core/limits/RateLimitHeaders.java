package io.routegateway.core.limits;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * OpenAI's rate-limit headers for an answer to a limited key: the requests pair when an rpm limit
 * applies, the tokens pair when a tpm limit applies, each for the tighter of the key's and the
 * team's (the one with less remaining). {@value #NOT_SET} marks a pair whose limit is not set.
 *
 * <p>{@code remaining} is what is left once this request is counted (when admitted). {@code reset}
 * is, as OpenAI defines it, the time until the limit is back to its initial state: until every
 * request (or every settled token) now in the sliding window has left it. Tokens reserved by
 * requests still running leave when those close, at no known time, so they do not extend it.
 */
public record RateLimitHeaders(
        long limitRequests,
        long remainingRequests,
        long resetRequestsMillis,
        long limitTokens,
        long remainingTokens,
        long resetTokensMillis) {

    public static final long NOT_SET = -1;
    public static final RateLimitHeaders NONE =
            new RateLimitHeaders(NOT_SET, NOT_SET, NOT_SET, NOT_SET, NOT_SET, NOT_SET);

    public static final String LIMIT_REQUESTS = "x-ratelimit-limit-requests";
    public static final String REMAINING_REQUESTS = "x-ratelimit-remaining-requests";
    public static final String RESET_REQUESTS = "x-ratelimit-reset-requests";
    public static final String LIMIT_TOKENS = "x-ratelimit-limit-tokens";
    public static final String REMAINING_TOKENS = "x-ratelimit-remaining-tokens";
    public static final String RESET_TOKENS = "x-ratelimit-reset-tokens";

    public boolean hasRequests() {
        return limitRequests != NOT_SET;
    }

    public boolean hasTokens() {
        return limitTokens != NOT_SET;
    }

    public boolean isEmpty() {
        return !hasRequests() && !hasTokens();
    }

    /** Hands each header to {@code sink}, name then value, only the pairs whose limit is set. */
    public void forEach(BiConsumer<String, String> sink) {
        if (hasRequests()) {
            sink.accept(LIMIT_REQUESTS, Long.toString(limitRequests));
            sink.accept(REMAINING_REQUESTS, Long.toString(remainingRequests));
            sink.accept(RESET_REQUESTS, duration(resetRequestsMillis));
        }
        if (hasTokens()) {
            sink.accept(LIMIT_TOKENS, Long.toString(limitTokens));
            sink.accept(REMAINING_TOKENS, Long.toString(remainingTokens));
            sink.accept(RESET_TOKENS, duration(resetTokensMillis));
        }
    }

    /** The headers, name → value, in the order above. */
    public Map<String, String> toMap() {
        Map<String, String> headers = new LinkedHashMap<>();
        forEach(headers::put);
        return headers;
    }

    /**
     * {@code millis} in OpenAI's (Go's) duration format: {@code 0s}, {@code 20ms}, {@code 1s},
     * {@code 1.5s}, {@code 6m0s}, {@code 1h2m3s}; negative counts as 0.
     */
    public static String duration(long millis) {
        if (millis <= 0) {
            return "0s";
        }
        if (millis < 1000) {
            return millis + "ms";
        }
        StringBuilder text = new StringBuilder(12);
        long hours = millis / 3_600_000;
        long minutes = millis / 60_000 % 60;
        long seconds = millis / 1000 % 60;
        long fraction = millis % 1000;
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            text.append(minutes).append('m');
        }
        text.append(seconds);
        if (fraction > 0) {
            String digits = Long.toString(1000 + fraction).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(digits, 0, end);
        }
        return text.append('s').toString();
    }
}
