package io.routegateway.core.event;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.model.Protocol;

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
        boolean probe) {

    public static final String TYPE = "request-completed.v1";

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
