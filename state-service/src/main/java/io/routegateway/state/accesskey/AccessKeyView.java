package io.routegateway.state.accesskey;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.Protocol;

/**
 * An AccessKey as the admin API shows it: never the key, never its hash; {@code key_prefix} is the
 * first characters, for recognising it.
 *
 * @param expired whether {@code expires_at} has passed (the gateway refuses it with {@code
 *     access_key_expired})
 * @param teamId the team the key belongs to, null = none
 * @param limits the key's own limits (all five fields, null = no limit); its team's apply as well
 */
public record AccessKeyView(
        String id,
        String name,
        String keyPrefix,
        boolean enabled,
        Instant expiresAt,
        boolean expired,
        List<String> allowedProtocols,
        List<String> allowedModels,
        List<String> groupIds,
        String teamId,
        Limits limits,
        long version,
        Instant createdAt,
        Instant updatedAt) {

    /** The view of a key as its snapshot carries it; {@code expired} is decided at {@code now}. */
    static AccessKeyView of(AccessKeySnapshot snapshot, Instant createdAt, Instant updatedAt, Instant now) {
        return new AccessKeyView(
                snapshot.accessKeyId(),
                snapshot.name(),
                snapshot.keyPrefix(),
                snapshot.enabled(),
                snapshot.expiresAt(),
                snapshot.expiresAt() != null && !now.isBefore(snapshot.expiresAt()),
                snapshot.allowedProtocols().stream().map(Protocol::wire).toList(),
                snapshot.allowedModels(),
                snapshot.groupIds(),
                snapshot.teamId(),
                snapshot.limits(),
                snapshot.version(),
                createdAt,
                updatedAt);
    }
}
