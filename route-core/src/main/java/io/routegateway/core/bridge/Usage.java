package io.routegateway.core.bridge;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Token counts in the canonical form. {@code inputTokens} counts every prompt token, cached ones
 * included, read from or written to the cache (the OpenAI and Gemini convention; Anthropic reports
 * the uncached rest separately and is summed up on reading). {@code outputTokens} includes {@code
 * reasoningTokens}. Unknown counts are null.
 *
 * <p>{@link #fromUsageObject} and {@link #fromUsageMetadata} are the one reader of an upstream's
 * usage: the codecs read it with them for the client's converted answer, and {@code
 * core.usage.TokenUsage} reads it with them for the usage record, so the client is told the tokens
 * the request log records.
 */
public record Usage(
        Long inputTokens, Long outputTokens, Long cacheReadTokens, Long cacheWriteTokens, Long reasoningTokens) {

    public static final Usage NONE = new Usage(null, null, null, null, null);

    /**
     * A {@code usage} object of OpenAI Chat ({@code prompt_tokens}, {@code completion_tokens},
     * {@code prompt_tokens_details.cached_tokens}, {@code completion_tokens_details.reasoning_tokens}),
     * OpenAI Responses ({@code input_tokens}, {@code output_tokens}, {@code
     * input_tokens_details.cached_tokens}, {@code output_tokens_details.reasoning_tokens}) or
     * Anthropic Messages ({@code input_tokens}, {@code cache_read_input_tokens}, {@code
     * cache_creation_input_tokens}, {@code output_tokens}), told apart by their keys. Anthropic's
     * {@code input_tokens} leaves out the tokens read from and written to the cache, so the prompt
     * is the three summed; Responses' {@code input_tokens} already counts its cached tokens and has
     * no such keys beside it. A count that is absent (Anthropic's {@code message_delta} often
     * carries only {@code output_tokens}) stays unknown, for an earlier frame's to stand.
     */
    public static Usage fromUsageObject(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return NONE;
        }
        Long input = count(usage, "input_tokens");
        Long cacheRead = count(usage, "cache_read_input_tokens");
        Long cacheWrite = count(usage, "cache_creation_input_tokens");
        Long prompt = count(usage, "prompt_tokens");
        if (input != null) {
            prompt = input + orZero(cacheRead) + orZero(cacheWrite);
        }
        Long output = count(usage, "output_tokens");
        if (output == null) {
            output = count(usage, "completion_tokens");
        }
        if (cacheRead == null) {
            cacheRead = count(usage.get("input_tokens_details"), "cached_tokens");
        }
        if (cacheRead == null) {
            cacheRead = count(usage.get("prompt_tokens_details"), "cached_tokens");
        }
        Long reasoning = count(usage.get("output_tokens_details"), "reasoning_tokens");
        if (reasoning == null) {
            reasoning = count(usage.get("completion_tokens_details"), "reasoning_tokens");
        }
        return new Usage(prompt, output, cacheRead, cacheWrite, reasoning);
    }

    /**
     * Gemini's {@code usageMetadata}: {@code promptTokenCount} already includes {@code
     * cachedContentTokenCount}; thoughts are counted apart from candidates and are output.
     */
    public static Usage fromUsageMetadata(JsonNode metadata) {
        if (metadata == null || !metadata.isObject()) {
            return NONE;
        }
        Long candidates = count(metadata, "candidatesTokenCount");
        Long thoughts = count(metadata, "thoughtsTokenCount");
        Long output = candidates == null && thoughts == null ? null : orZero(candidates) + orZero(thoughts);
        return new Usage(
                count(metadata, "promptTokenCount"),
                output,
                count(metadata, "cachedContentTokenCount"),
                null,
                thoughts);
    }

    /** Later counts win where known (streams report cumulative counters). */
    public Usage merge(Usage later) {
        if (later == null) {
            return this;
        }
        return new Usage(
                pick(later.inputTokens, inputTokens),
                pick(later.outputTokens, outputTokens),
                pick(later.cacheReadTokens, cacheReadTokens),
                pick(later.cacheWriteTokens, cacheWriteTokens),
                pick(later.reasoningTokens, reasoningTokens));
    }

    /** Prompt tokens neither read from nor written to a cache (Anthropic's {@code input_tokens}). */
    public long uncachedInput() {
        return Math.max(0, orZero(inputTokens) - orZero(cacheReadTokens) - orZero(cacheWriteTokens));
    }

    public long input() {
        return orZero(inputTokens);
    }

    public long output() {
        return orZero(outputTokens);
    }

    static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private static Long pick(Long later, Long earlier) {
        return later != null ? later : earlier;
    }

    /** A count is a whole number that fits a long; anything else ({@code "12"}, {@code 1.5}) says nothing. */
    private static Long count(JsonNode node, String name) {
        JsonNode value = node == null ? null : node.get(name);
        if (value != null && value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        return null;
    }
}
