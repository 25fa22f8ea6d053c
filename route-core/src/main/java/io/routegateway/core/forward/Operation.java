package io.routegateway.core.forward;

/** What a forwarded request asks of the upstream. */
public enum Operation {
    /** A generation: chat completions, responses, messages, generateContent. */
    GENERATE,
    /** Anthropic's {@code /v1/messages/count_tokens} or Gemini's {@code :countTokens}. */
    COUNT_TOKENS,
    /** OpenAI's {@code /v1/embeddings}. */
    EMBEDDINGS
}
