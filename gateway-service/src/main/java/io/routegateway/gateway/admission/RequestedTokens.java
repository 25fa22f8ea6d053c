package io.routegateway.gateway.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.limits.TokenReservation;

/**
 * The tokens a request reserves against {@code tpm_limit} while it runs ({@link TokenReservation}):
 * its prompt estimated as a quarter of its body's bytes, plus the most it may write as it says
 * itself. The byte estimate is used rather than the local tokenizer ({@code TokenEstimator}): it costs
 * nothing on the event loop whatever the body's size, and the reservation is only held until the
 * request's close settles the real count. It over-counts inline images and JSON punctuation, which
 * errs on the safe side of a limit.
 */
final class RequestedTokens {

    /** Bytes per token of the prompt estimate. */
    static final long BYTES_PER_TOKEN = 4;

    private RequestedTokens() {}

    /**
     * @param body the parsed body (null when there was none)
     * @param bodyBytes the body's size in bytes
     */
    static long reservation(Operation operation, JsonNode body, long bodyBytes) {
        if (operation == Operation.COUNT_TOKENS) {
            // counted, not spent: the usage record of a token count carries no tokens
            return 0;
        }
        long prompt = Math.max(0, bodyBytes) / BYTES_PER_TOKEN;
        Long output = operation == Operation.EMBEDDINGS ? Long.valueOf(0) : maxOutputTokens(body);
        return TokenReservation.of(prompt, output);
    }

    /**
     * The request's bound on its output: {@code max_tokens} (Chat Completions, Anthropic), {@code
     * max_completion_tokens} (Chat Completions), {@code max_output_tokens} (Responses) or Gemini's
     * {@code generationConfig.maxOutputTokens}, the first present as a whole number ≥ 0; null when
     * none is (the default output then applies).
     */
    static Long maxOutputTokens(JsonNode body) {
        if (body == null || !body.isObject()) {
            return null;
        }
        for (String field : new String[] {"max_tokens", "max_completion_tokens", "max_output_tokens"}) {
            Long value = wholeNumber(body.get(field));
            if (value != null) {
                return value;
            }
        }
        JsonNode generation = body.get("generationConfig");
        return generation == null || !generation.isObject() ? null : wholeNumber(generation.get("maxOutputTokens"));
    }

    private static Long wholeNumber(JsonNode value) {
        if (value == null
                || !value.isIntegralNumber()
                || value.bigIntegerValue().signum() < 0) {
            return null;
        }
        return value.canConvertToLong() ? value.longValue() : TokenReservation.MAX;
    }
}
