package io.routegateway.state.repository;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code route_credentials}. */
@ApplicationScoped
public class CredentialRepository implements PanacheRepositoryBase<CredentialEntity, String> {

    /**
     * {@code SELECT ... FOR UPDATE}: every writer of one credential's state takes this lock first, so
     * concurrent events of one account are applied one after the other. Null when the row is absent.
     */
    public Uni<CredentialEntity> findForUpdate(String id) {
        return findById(id, LockModeType.PESSIMISTIC_WRITE);
    }
}
