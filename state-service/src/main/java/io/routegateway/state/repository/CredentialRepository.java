package io.routegateway.state.repository;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code route_credentials}. */
@ApplicationScoped
public class CredentialRepository implements PanacheRepositoryBase<CredentialEntity, String> {

    private static final String WITH_MODEL = "select c, m from CredentialEntity c"
            + " left join CredentialModelEntity m on m.routeCredentialId = c.id and m.modelKey = ?2"
            + " where c.id = ?1";

    /**
     * {@code SELECT ... FOR UPDATE}: every writer of one credential's state takes this lock first, so
     * concurrent events of one account are applied one after the other. Null when the row is absent.
     */
    public Uni<CredentialEntity> findForUpdate(String id) {
        return findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /**
     * The account row and the row of one model (null when absent; no model key: none), in one
     * statement by primary key and without a lock: what the success fast path reads. Null when the
     * credential does not exist.
     */
    public Uni<WithModel> findWithModel(String id, String modelKey) {
        if (modelKey == null) {
            return findById(id).map(row -> row == null ? null : new WithModel(row, null));
        }
        return getSession()
                .flatMap(session -> session.createSelectionQuery(WITH_MODEL, Object[].class)
                        .setParameter(1, id)
                        .setParameter(2, modelKey)
                        .getSingleResultOrNull())
                .map(columns -> columns == null
                        ? null
                        : new WithModel((CredentialEntity) columns[0], (CredentialModelEntity) columns[1]));
    }

    /** An account row and one of its model rows, which may be null. */
    public record WithModel(CredentialEntity credential, CredentialModelEntity model) {}
}
