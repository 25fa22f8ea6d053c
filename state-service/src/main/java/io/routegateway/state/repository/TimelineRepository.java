package io.routegateway.state.repository;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code credential_health_timeline}. */
@ApplicationScoped
public class TimelineRepository implements PanacheRepositoryBase<TimelineEntity, Long> {

    /** A credential's timeline, oldest first. */
    public Uni<List<TimelineEntity>> listForCredential(String credentialId) {
        return list("credentialId = ?1 order by id", credentialId);
    }
}
