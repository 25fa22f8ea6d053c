package io.routegateway.gateway.forward;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import io.routegateway.core.forward.CountTokensRequest;
import io.routegateway.core.forward.GeminiCountTokensRequest;

/**
 * The local input-token estimate of a count_tokens request that no native upstream answers: the
 * request's text counted with the o200k_base encoding (jtokkit), plus a small per-message and
 * per-tool overhead. Anthropic's own tokenizer is not public, so this is an estimate and is labelled
 * as one ({@code x-route-token-count: estimate}).
 */
public final class TokenEstimator {

    /** Special-token text ("<|endoftext|>") in a client's body is counted as ordinary text. */
    private static final Encoding ENCODING = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    private TokenEstimator() {}

    /** Call only on a body {@link CountTokensRequest#problem} accepts. */
    public static int inputTokens(JsonNode body) {
        long tokens = (long) CountTokensRequest.items(body) * CountTokensRequest.PER_ITEM_OVERHEAD;
        for (String text : CountTokensRequest.texts(body)) {
            tokens += ENCODING.countTokensOrdinary(text);
        }
        return (int) Math.min(Integer.MAX_VALUE, tokens);
    }

    /** The estimate of a Gemini countTokens body; call only on one {@link GeminiCountTokensRequest#problem} accepts. */
    public static int geminiInputTokens(JsonNode body) {
        long tokens = (long) GeminiCountTokensRequest.items(body) * CountTokensRequest.PER_ITEM_OVERHEAD
                + count(GeminiCountTokensRequest.texts(body));
        return (int) Math.min(Integer.MAX_VALUE, tokens);
    }

    /** The tokens of {@code texts}, counted as ordinary text. */
    public static int count(List<String> texts) {
        long tokens = 0;
        for (String text : texts) {
            tokens += ENCODING.countTokensOrdinary(text);
        }
        return (int) Math.min(Integer.MAX_VALUE, tokens);
    }
}
