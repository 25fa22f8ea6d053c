package io.routegateway.core.bridge;

/**
 * Token counts in the canonical form. {@code inputTokens} counts every prompt token, cached ones
 * included (the OpenAI and Gemini convention; Anthropic reports the uncached rest separately and
 * its codec converts). {@code outputTokens} includes {@code reasoningTokens}. Unknown counts are
 * null.
 */
public record Usage(
        Long inputTokens, Long outputTokens, Long cacheReadTokens, Long cacheWriteTokens, Long reasoningTokens) {

    public static final Usage NONE = new Usage(null, null, null, null, null);

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
}
