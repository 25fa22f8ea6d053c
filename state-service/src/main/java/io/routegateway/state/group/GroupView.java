package io.routegateway.state.group;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.state.repository.GroupEntity;
import io.routegateway.state.repository.StateRows;

/**
 * A group as the admin API shows it.
 *
 * @param effectiveWeight what group selection uses: the default weight in auto mode, else the manual
 *     weight
 */
public record GroupView(
        String id,
        String name,
        boolean enabled,
        String weightMode,
        int weight,
        int effectiveWeight,
        List<String> exposedModels,
        boolean affinityEnabled,
        String bridging,
        List<String> credentialIds,
        long version,
        Instant createdAt,
        Instant updatedAt) {

    static GroupView of(GroupEntity row, List<String> credentialIds) {
        GroupSnapshot snapshot = StateRows.groupSnapshot(row, row.updatedAt);
        return new GroupView(
                row.id,
                row.name,
                row.enabled,
                snapshot.weightMode().wire(),
                row.weight,
                snapshot.effectiveWeight(),
                snapshot.exposedModels(),
                row.affinityEnabled,
                snapshot.bridging().wire(),
                credentialIds,
                row.version,
                row.createdAt,
                row.updatedAt);
    }
}
