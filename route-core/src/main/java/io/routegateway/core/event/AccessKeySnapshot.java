package io.routegateway.core.event;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.model.Protocol;

/**
 * Type {@code access-key.v1} on {@link Topics#ACCESS_KEYS}, keyed by access key id. Carries only
 * the SHA-256 hash of the key; the plaintext exists once, in the creation response.
 *
 * @param expiresAt null = never expires
 * @param allowedProtocols empty = every protocol
 * @param allowedModels empty = every model
 * @param groupIds the key's authorization scope, in failover order
 */
public record AccessKeySnapshot(
        String accessKeyId,
        long version,
        String name,
        String keyHash,
        String keyPrefix,
        boolean enabled,
        Instant expiresAt,
        List<Protocol> allowedProtocols,
        List<String> allowedModels,
        List<String> groupIds,
        Instant publishedAt) {

    public static final String TYPE = "access-key.v1";

    public AccessKeySnapshot {
        allowedProtocols = allowedProtocols == null ? List.of() : List.copyOf(allowedProtocols);
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        groupIds = groupIds == null ? List.of() : List.copyOf(groupIds);
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
