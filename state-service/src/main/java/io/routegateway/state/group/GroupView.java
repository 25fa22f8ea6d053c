package io.routegateway.state.group;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.GroupSnapshot;

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

    /** The view of a group as its snapshot carries it. */
    static GroupView of(GroupSnapshot snapshot, List<String> credentialIds, Instant createdAt, Instant updatedAt) {
        return new GroupView(
                snapshot.groupId(),
                snapshot.name(),
                snapshot.enabled(),
                snapshot.weightMode().wire(),
                snapshot.weight(),
                snapshot.effectiveWeight(),
                snapshot.exposedModels(),
                snapshot.affinityEnabled(),
                snapshot.bridging().wire(),
                credentialIds,
                snapshot.version(),
                createdAt,
                updatedAt);
    }
}
