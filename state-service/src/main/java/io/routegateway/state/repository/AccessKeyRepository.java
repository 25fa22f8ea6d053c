package io.routegateway.state.repository;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code access_keys}. */
@ApplicationScoped
public class AccessKeyRepository implements PanacheRepositoryBase<AccessKeyEntity, String> {

    /** Locks the key row so its version and its outbox row are written in commit order. */
    public Uni<AccessKeyEntity> findForUpdate(String id) {
        return findById(id, LockModeType.PESSIMISTIC_WRITE);
    }
}
