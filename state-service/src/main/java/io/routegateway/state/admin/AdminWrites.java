package io.routegateway.state.admin;

import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.routegateway.state.publish.OutboxRelay;
import io.smallrye.mutiny.Uni;

/**
 * One admin write = one transaction: the rows and their outbox snapshots commit together or not at
 * all (a validation failure anywhere rolls everything back). After the commit the outbox relay is
 * asked for a round, so the change reaches the compacted topics at once rather than at the next poll.
 */
@ApplicationScoped
public class AdminWrites {

    private final OutboxRelay relay;

    AdminWrites(OutboxRelay relay) {
        this.relay = relay;
    }

    public <T> Uni<T> inTransaction(Supplier<Uni<T>> work) {
        return Panache.withTransaction(work).invoke(relay::trigger);
    }

    /** Persists the rows, none included (Panache refuses an empty batch). */
    static <E> Uni<Void> persistAll(PanacheRepositoryBase<E, ?> repository, List<E> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem() : repository.persist(rows);
    }
}
