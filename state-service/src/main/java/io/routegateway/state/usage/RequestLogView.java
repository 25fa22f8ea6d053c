package io.routegateway.state.usage;

import java.time.Instant;
import java.util.UUID;

/**
 * One client request or probe as logged.
 *
 * @param status the HTTP status the client got
 * @param reasonCode the final reason code, null on success
 * @param costMicros micro-USD, null when the model has no price
 * @param probe a recovery probe or model test
 * @param teamId the team the request was charged to (the key's team when it was admitted), null = none
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
        String teamId) {}
