package io.routegateway.core.event;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.Protocol;

/**
 * Type {@code access-key.v1} on {@link Topics#ACCESS_KEYS}, keyed by access key id. Carries only
 * the SHA-256 hash of the key; the plaintext exists once, in the creation response.
 *
 * @param expiresAt null = never expires
 * @param allowedProtocols empty = every protocol
 * @param allowedModels empty = every model
 * @param groupIds the key's authorization scope, in failover order
 * @param teamId the team owning the key, null = none (optional on the wire)
 * @param limits the key's own limits; its team's apply as well (optional on the wire)
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
        Instant publishedAt,
        String teamId,
        Limits limits) {

    public static final String TYPE = "access-key.v1";

    public AccessKeySnapshot {
        allowedProtocols = allowedProtocols == null ? List.of() : List.copyOf(allowedProtocols);
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        groupIds = groupIds == null ? List.of() : List.copyOf(groupIds);
        limits = limits == null ? Limits.NONE : limits;
    }

    /** A key of no team and without limits of its own. */
    public AccessKeySnapshot(
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
        this(
                accessKeyId,
                version,
                name,
                keyHash,
                keyPrefix,
                enabled,
                expiresAt,
                allowedProtocols,
                allowedModels,
                groupIds,
                publishedAt,
                null,
                Limits.NONE);
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
