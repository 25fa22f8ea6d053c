package io.routegateway.state.repository;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code route_groups}. */
@ApplicationScoped
public class GroupRepository implements PanacheRepositoryBase<GroupEntity, String> {

    /** Locks the group row so its version and its outbox row are written in commit order. */
    public Uni<GroupEntity> findForUpdate(String id) {
        return findById(id, LockModeType.PESSIMISTIC_WRITE);
    }
}
