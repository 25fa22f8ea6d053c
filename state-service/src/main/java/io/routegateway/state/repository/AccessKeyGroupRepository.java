package io.routegateway.state.repository;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code access_key_groups}: a key's scope. */
@ApplicationScoped
public class AccessKeyGroupRepository implements PanacheRepositoryBase<AccessKeyGroupEntity, AccessKeyGroupEntity.Key> {

    /** The key's groups in failover order. */
    public Uni<List<String>> groupIdsOf(String accessKeyId) {
        return list("accessKeyId = ?1 order by position, groupId", accessKeyId)
                .map(rows -> rows.stream().map(row -> row.groupId).toList());
    }
}
