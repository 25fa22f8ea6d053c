package io.routegateway.state.usage;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One client request or probe as logged.
 *
 * @param status the HTTP status the client got
 * @param reasonCode the final reason code, null on success
 * @param costMicros micro-USD priced per token kind ({@code model_prices}), null when the model has
 *     no price
 * @param probe a recovery probe or model test
 * @param teamId the team the request was charged to (the key's team when it was admitted), null = none
 * @param cacheReadTokens of the input tokens, those read from the prompt cache; null = not reported
 * @param cacheWrite5mTokens of the input tokens, those written to the cache for five minutes
 * @param cacheWrite1hTokens of the input tokens, those written to the cache for one hour
 * @param reasoningTokens of the output tokens, the reasoning ones
 */
public record RequestLogView(
        UUID requestId,
        Instant occurredAt,
        String protocol,
        String accessKeyId,
        String groupId,
        String credentialId,
        String requestedModel,
        String modelKey,
        int attempts,
        int status,
        String reasonCode,
        long latencyMs,
        Long ttftMs,
        Long inputTokens,
        Long outputTokens,
        Long costMicros,
        boolean stream,
        boolean clientDisconnected,
        boolean success,
        boolean probe,
        String teamId,
        Long cacheReadTokens,
        @JsonProperty("cache_write_5m_tokens") Long cacheWrite5mTokens,
        @JsonProperty("cache_write_1h_tokens") Long cacheWrite1hTokens,
        Long reasoningTokens) {}
