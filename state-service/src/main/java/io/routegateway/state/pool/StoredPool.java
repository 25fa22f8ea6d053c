package io.routegateway.state.pool;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.select.PoolView;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.AccessKeyGroupEntity;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.GroupCredentialEntity;
import io.routegateway.state.repository.GroupEntity;
import io.routegateway.state.repository.StateRows;

/**
 * Every routing row as stored, indexed for the listings, the pool health and the route check. Built
 * from one read of each table; {@link #view} turns it into the same snapshots the gateways receive.
 */
public record StoredPool(
        List<CredentialEntity> credentials,
        Map<String, List<CredentialModelEntity>> modelsByCredential,
        Map<String, List<String>> groupIdsByCredential,
        List<GroupEntity> groups,
        Map<String, List<String>> credentialIdsByGroup,
        List<AccessKeyEntity> accessKeys,
        Map<String, List<String>> groupIdsByAccessKey) {

    static StoredPool of(
            List<CredentialEntity> credentials,
            List<CredentialModelEntity> models,
            List<GroupCredentialEntity> memberships,
            List<GroupEntity> groups,
            List<AccessKeyEntity> accessKeys,
            List<AccessKeyGroupEntity> scopes) {
        Map<String, List<CredentialModelEntity>> modelsByCredential = new HashMap<>();
        for (CredentialModelEntity model : models) {
            modelsByCredential
                    .computeIfAbsent(model.routeCredentialId, id -> new ArrayList<>())
                    .add(model);
        }
        Map<String, List<String>> groupIdsByCredential = new HashMap<>();
        Map<String, List<String>> credentialIdsByGroup = new HashMap<>();
        List<GroupCredentialEntity> sortedMemberships = new ArrayList<>(memberships);
        sortedMemberships.sort(Comparator.comparing((GroupCredentialEntity link) -> link.groupId)
                .thenComparing(link -> link.credentialId));
        for (GroupCredentialEntity link : sortedMemberships) {
            groupIdsByCredential
                    .computeIfAbsent(link.credentialId, id -> new ArrayList<>())
                    .add(link.groupId);
            credentialIdsByGroup
                    .computeIfAbsent(link.groupId, id -> new ArrayList<>())
                    .add(link.credentialId);
        }
        List<AccessKeyGroupEntity> sortedScopes = new ArrayList<>(scopes);
        sortedScopes.sort(Comparator.comparingInt((AccessKeyGroupEntity scope) -> scope.position)
                .thenComparing(scope -> scope.groupId));
        Map<String, List<String>> groupIdsByAccessKey = new HashMap<>();
        for (AccessKeyGroupEntity scope : sortedScopes) {
            groupIdsByAccessKey
                    .computeIfAbsent(scope.accessKeyId, id -> new ArrayList<>())
                    .add(scope.groupId);
        }
        return new StoredPool(
                credentials,
                modelsByCredential,
                groupIdsByCredential,
                groups,
                credentialIdsByGroup,
                accessKeys,
                groupIdsByAccessKey);
    }

    public List<CredentialModelEntity> modelsOf(String credentialId) {
        return modelsByCredential.getOrDefault(credentialId, List.of());
    }

    public List<String> groupIdsOf(String credentialId) {
        return groupIdsByCredential.getOrDefault(credentialId, List.of());
    }

    public List<String> credentialIdsOf(String groupId) {
        return credentialIdsByGroup.getOrDefault(groupId, List.of());
    }

    public List<String> scopeOf(String accessKeyId) {
        return groupIdsByAccessKey.getOrDefault(accessKeyId, List.of());
    }

    /** The routing view a gateway would hold after reading the compacted topics (no recent stats). */
    public PoolView view(Instant now) {
        List<CredentialSnapshot> credentialSnapshots = new ArrayList<>();
        for (CredentialEntity row : credentials) {
            credentialSnapshots.add(
                    StateRows.snapshot(row, StateRows.health(row, modelsOf(row.id)), groupIdsOf(row.id), now));
        }
        List<GroupSnapshot> groupSnapshots = new ArrayList<>();
        for (GroupEntity row : groups) {
            groupSnapshots.add(StateRows.groupSnapshot(row, now));
        }
        List<AccessKeySnapshot> keySnapshots = new ArrayList<>();
        for (AccessKeyEntity row : accessKeys) {
            keySnapshots.add(StateRows.accessKeySnapshot(row, scopeOf(row.id), now));
        }
        return PoolView.of(credentialSnapshots, groupSnapshots, keySnapshots);
    }
}
