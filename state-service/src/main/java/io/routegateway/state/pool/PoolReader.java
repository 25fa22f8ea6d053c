package io.routegateway.state.pool;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.state.repository.AccessKeyGroupRepository;
import io.routegateway.state.repository.AccessKeyRepository;
import io.routegateway.state.repository.CredentialModelRepository;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.repository.GroupCredentialRepository;
import io.routegateway.state.repository.GroupRepository;
import io.smallrye.mutiny.Uni;

/** Reads every routing table once (one statement after the other, in one session). */
@ApplicationScoped
public class PoolReader {

    private final CredentialRepository credentials;
    private final CredentialModelRepository models;
    private final GroupCredentialRepository memberships;
    private final GroupRepository groups;
    private final AccessKeyRepository accessKeys;
    private final AccessKeyGroupRepository scopes;

    PoolReader(
            CredentialRepository credentials,
            CredentialModelRepository models,
            GroupCredentialRepository memberships,
            GroupRepository groups,
            AccessKeyRepository accessKeys,
            AccessKeyGroupRepository scopes) {
        this.credentials = credentials;
        this.models = models;
        this.memberships = memberships;
        this.groups = groups;
        this.accessKeys = accessKeys;
        this.scopes = scopes;
    }

    public Uni<StoredPool> read() {
        return Panache.withSession(() -> credentials
                .listAll()
                .flatMap(credentialRows -> models.listAll()
                        .flatMap(modelRows -> memberships
                                .listAll()
                                .flatMap(links -> groups.listAll()
                                        .flatMap(groupRows -> accessKeys
                                                .listAll()
                                                .flatMap(keyRows -> scopes.listAll()
                                                        .map(scopeRows -> StoredPool.of(
                                                                credentialRows,
                                                                modelRows,
                                                                links,
                                                                groupRows,
                                                                keyRows,
                                                                scopeRows))))))));
    }
}
