package io.routegateway.state.repository;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code route_credential_models}. */
@ApplicationScoped
public class CredentialModelRepository
        implements PanacheRepositoryBase<CredentialModelEntity, CredentialModelEntity.Key> {

    public Uni<List<CredentialModelEntity>> listForCredential(String credentialId) {
        return list("routeCredentialId = ?1 order by modelKey", credentialId);
    }
}
