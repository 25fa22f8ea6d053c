package io.routegateway.core.event;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.usage.ModelPrices;

/**
 * Type {@code request-completed.v1} on {@link Topics#USAGE}: one record per client request (or
 * probe), failed ones included, settled also when the client disconnects mid-stream.
 *
 * @param credentialId the last credential tried, null when none was selected
 * @param groupId may be null
 * @param modelKey may be null
 * @param status HTTP status returned to the client
 * @param reasonCode final reason code, null on success
 * @param ttftMs time to first byte sent to the client, null when nothing was sent
 * @param inputTokens from the upstream's usage fields or final stream frame, null when unknown
 * @param outputTokens as above
 * @param success false for any failure, semantic failures included ({@code metadata_json.success})
 * @param probe true for recovery probes and model tests, so stats can separate probe spend
 * @param teamId the AccessKey's team at admission, null = none (optional on the wire)
 * @param cacheReadTokens of the input tokens, those read from the prompt cache (optional)
 * @param cacheWrite5mTokens of the input tokens, those written to the cache for 5 minutes (optional)
 * @param cacheWrite1hTokens of the input tokens, those written to the cache for 1 hour (optional)
 * @param reasoningTokens of the output tokens, the reasoning ones (optional)
 * @param attemptChain the upstream attempts in order, at most {@link AttemptStep#MAX_STEPS} entries
 *     (a longer chain is cut with an {@code omitted} marker); optional, null when no attempt was made
 *     or the producer predates it
 */
public record RequestCompleted(
        UUID requestId,
        Instant occurredAt,
        Protocol protocol,
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
        boolean stream,
        boolean clientDisconnected,
        boolean success,
        boolean probe,
        String teamId,
        Long cacheReadTokens,
        @JsonProperty("cache_write_5m_tokens") Long cacheWrite5mTokens,
        @JsonProperty("cache_write_1h_tokens") Long cacheWrite1hTokens,
        Long reasoningTokens,
        // absent rather than null when there is none: a record without a chain reads as it always did
        @JsonInclude(JsonInclude.Include.NON_NULL) List<AttemptStep> attemptChain) {

    public static final String TYPE = "request-completed.v1";

    /** A record without an attempt chain (it is optional on the wire). */
    public RequestCompleted(
            UUID requestId,
            Instant occurredAt,
            Protocol protocol,
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
            boolean stream,
            boolean clientDisconnected,
            boolean success,
            boolean probe,
            String teamId,
            Long cacheReadTokens,
            Long cacheWrite5mTokens,
            Long cacheWrite1hTokens,
            Long reasoningTokens) {
        this(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                groupId,
                credentialId,
                requestedModel,
                modelKey,
                attempts,
                status,
                reasonCode,
                latencyMs,
                ttftMs,
                inputTokens,
                outputTokens,
                stream,
                clientDisconnected,
                success,
                probe,
                teamId,
                cacheReadTokens,
                cacheWrite5mTokens,
                cacheWrite1hTokens,
                reasoningTokens,
                null);
    }

    /** A record without team or token details (they are optional on the wire). */
    public RequestCompleted(
            UUID requestId,
            Instant occurredAt,
            Protocol protocol,
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
            boolean stream,
            boolean clientDisconnected,
            boolean success,
            boolean probe) {
        this(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                groupId,
                credentialId,
                requestedModel,
                modelKey,
                attempts,
                status,
                reasonCode,
                latencyMs,
                ttftMs,
                inputTokens,
                outputTokens,
                stream,
                clientDisconnected,
                success,
                probe,
                null,
                null,
                null,
                null,
                null);
    }

    /** This record charged to {@code teamId} (the team that owned the AccessKey when it was admitted). */
    public RequestCompleted withTeam(String teamId) {
        return new RequestCompleted(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                groupId,
                credentialId,
                requestedModel,
                modelKey,
                attempts,
                status,
                reasonCode,
                latencyMs,
                ttftMs,
                inputTokens,
                outputTokens,
                stream,
                clientDisconnected,
                success,
                probe,
                teamId,
                cacheReadTokens,
                cacheWrite5mTokens,
                cacheWrite1hTokens,
                reasoningTokens,
                attemptChain);
    }

    /**
     * What this request cost in micro-USD at {@code prices}, each token kind at its own price; null
     * when neither its model key nor its requested model is priced, or no count is known. One rule
     * for the gateway's settled lease and state-service's stored row.
     */
    public Long costMicros(ModelPrices prices) {
        return prices.costMicros(
                modelKey,
                requestedModel,
                inputTokens,
                outputTokens,
                cacheReadTokens,
                cacheWrite5mTokens,
                cacheWrite1hTokens,
                reasoningTokens);
    }

    /**
     * This record with the token details priced apart: of {@code input_tokens}, those read from the
     * cache and those written to it for five minutes or one hour; of {@code output_tokens}, the
     * reasoning ones. Each null when the upstream did not say.
     */
    public RequestCompleted withTokenDetails(
            Long cacheReadTokens, Long cacheWrite5mTokens, Long cacheWrite1hTokens, Long reasoningTokens) {
        return new RequestCompleted(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                groupId,
                credentialId,
                requestedModel,
                modelKey,
                attempts,
                status,
                reasonCode,
                latencyMs,
                ttftMs,
                inputTokens,
                outputTokens,
                stream,
                clientDisconnected,
                success,
                probe,
                teamId,
                cacheReadTokens,
                cacheWrite5mTokens,
                cacheWrite1hTokens,
                reasoningTokens,
                attemptChain);
    }

    /**
     * A client request refused before routing (authentication, group or body checks): no group,
     * credential or model, no attempt, nothing sent, not a success.
     */
    public static RequestCompleted refused(
            UUID requestId, Instant occurredAt, Protocol protocol, String accessKeyId, int status, String reasonCode) {
        return new RequestCompleted(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                null,
                null,
                null,
                null,
                0,
                status,
                reasonCode,
                0,
                null,
                null,
                null,
                false,
                false,
                false,
                false);
    }

    /**
     * A client request that was routed, settled when its answer ended (success or failure, the
     * client gone mid-stream included); never a probe.
     */
    public static RequestCompleted settled(
            UUID requestId,
            Instant occurredAt,
            Protocol protocol,
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
            boolean stream,
            boolean clientDisconnected,
            boolean success) {
        return new RequestCompleted(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                groupId,
                credentialId,
                requestedModel,
                modelKey,
                attempts,
                status,
                reasonCode,
                latencyMs,
                ttftMs,
                inputTokens,
                outputTokens,
                stream,
                clientDisconnected,
                success,
                false);
    }

    /**
     * One recovery probe or model test: one attempt on one credential, no AccessKey or group, no
     * reason code, nothing streamed; {@code status} 0 when no HTTP answer came.
     */
    public static RequestCompleted probe(
            UUID requestId,
            Instant occurredAt,
            Protocol protocol,
            String credentialId,
            String requestedModel,
            String modelKey,
            int status,
            long latencyMs,
            boolean success) {
        return new RequestCompleted(
                requestId,
                occurredAt,
                protocol,
                null,
                null,
                credentialId,
                requestedModel,
                modelKey,
                1,
                status,
                null,
                latencyMs,
                null,
                null,
                null,
                false,
                false,
                success,
                true);
    }

    /** This record with other model names, everything else kept. */
    public RequestCompleted withModelNames(String requestedModel, String modelKey) {
        return new RequestCompleted(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                groupId,
                credentialId,
                requestedModel,
                modelKey,
                attempts,
                status,
                reasonCode,
                latencyMs,
                ttftMs,
                inputTokens,
                outputTokens,
                stream,
                clientDisconnected,
                success,
                probe,
                teamId,
                cacheReadTokens,
                cacheWrite5mTokens,
                cacheWrite1hTokens,
                reasoningTokens,
                attemptChain);
    }

    /** This record with the attempts that were made ({@link io.routegateway.core.forward.AttemptChain}). */
    public RequestCompleted withAttemptChain(List<AttemptStep> attemptChain) {
        return new RequestCompleted(
                requestId,
                occurredAt,
                protocol,
                accessKeyId,
                groupId,
                credentialId,
                requestedModel,
                modelKey,
                attempts,
                status,
                reasonCode,
                latencyMs,
                ttftMs,
                inputTokens,
                outputTokens,
                stream,
                clientDisconnected,
                success,
                probe,
                teamId,
                cacheReadTokens,
                cacheWrite5mTokens,
                cacheWrite1hTokens,
                reasoningTokens,
                attemptChain);
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
