package io.routegateway.state.accesskey;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.StateRows;

/**
 * An AccessKey as the admin API shows it: never the key, never its hash; {@code key_prefix} is the
 * first characters, for recognising it.
 *
 * @param expired whether {@code expires_at} has passed (the gateway refuses it with {@code
 *     access_key_expired})
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
        long version,
        Instant createdAt,
        Instant updatedAt) {

    static AccessKeyView of(AccessKeyEntity row, List<String> groupIds, Instant now) {
        AccessKeySnapshot snapshot = StateRows.accessKeySnapshot(row, groupIds, now);
        return new AccessKeyView(
                row.id,
                row.name,
                row.keyPrefix,
                row.enabled,
                row.expiresAt,
                row.expiresAt != null && !now.isBefore(row.expiresAt),
                snapshot.allowedProtocols().stream().map(Protocol::wire).toList(),
                snapshot.allowedModels(),
                snapshot.groupIds(),
                row.version,
                row.createdAt,
                row.updatedAt);
    }
}
