package io.routegateway.state.repository;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code processed_events}: the idempotency record. */
@ApplicationScoped
public class ProcessedEventRepository implements PanacheRepositoryBase<ProcessedEventEntity, UUID> {

    /**
     * Records the event id in the current transaction, in one statement: true when it is new, false
     * when it was applied before ({@code ON CONFLICT DO NOTHING}). Rolled back with the transaction.
     */
    public Uni<Boolean> recordIfNew(UUID eventId, String credentialId, String eventType, Instant appliedAt) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("INSERT INTO processed_events"
                                + " (event_id, credential_id, event_type, applied_at) VALUES (:id, :credential, :type, :at)"
                                + " ON CONFLICT (event_id) DO NOTHING")
                        .setParameter("id", eventId)
                        .setParameter("credential", credentialId)
                        .setParameter("type", eventType)
                        .setParameter("at", appliedAt.toString())
                        .executeUpdate())
                .map(inserted -> inserted == 1);
    }
}
