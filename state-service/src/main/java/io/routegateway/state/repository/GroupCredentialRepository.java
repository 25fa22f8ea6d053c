package io.routegateway.state.repository;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code route_group_credentials}: group pools. */
@ApplicationScoped
public class GroupCredentialRepository
        implements PanacheRepositoryBase<GroupCredentialEntity, GroupCredentialEntity.Key> {

    /** The groups whose pool holds the credential, by group id. */
    public Uni<List<String>> groupIdsOf(String credentialId) {
        return list("credentialId = ?1 order by groupId", credentialId)
                .map(rows -> rows.stream().map(row -> row.groupId).toList());
    }

    /** How many group pools hold each of these credentials; a credential in none is absent. */
    public Uni<Map<String, Long>> groupCounts(Collection<String> credentialIds) {
        if (credentialIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list("credentialId in ?1", List.copyOf(credentialIds)).map(rows -> {
            Map<String, Long> counts = new HashMap<>();
            rows.forEach(row -> counts.merge(row.credentialId, 1L, Long::sum));
            return counts;
        });
    }

    /** The credentials in a group's pool, by credential id. */
    public Uni<List<String>> credentialIdsOf(String groupId) {
        return list("groupId = ?1 order by credentialId", groupId)
                .map(rows -> rows.stream().map(row -> row.credentialId).toList());
    }
}
