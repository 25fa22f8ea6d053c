package io.routegateway.state.pool;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.routegateway.state.identity.AuditTrail;
import io.routegateway.state.publish.OutboxRelay;
import io.smallrye.mutiny.Uni;

/**
 * One admin write = one transaction: the rows, their outbox snapshots and the audit entry commit together or not at
 * all (a validation failure anywhere rolls everything back). After the commit the outbox relay is
 * asked for a round, so the change reaches the compacted topics at once rather than at the next poll.
 */
@ApplicationScoped
public class AdminWrites {

    private final OutboxRelay relay;
    private final AuditTrail audit;

    AdminWrites(OutboxRelay relay, AuditTrail audit) {
        this.relay = relay;
        this.audit = audit;
    }

    /**
     * Runs {@code work} in one transaction; an admin write's audit entry ({@link AuditTrail}) is
     * appended in the same transaction.
     */
    public <T> Uni<T> inTransaction(Supplier<Uni<T>> work) {
        return Panache.withTransaction(() -> audit.around(work)).invoke(relay::trigger);
    }

    /**
     * Makes the stored links of one owner exactly {@code wanted}: deletes the links not wanted and
     * inserts the missing ones; links that stay are not touched. Flushed, so what is queued next
     * reads the new links back.
     *
     * @param current the owner's links as stored
     * @param otherEnd the id a link points to
     * @param link a new link to that id
     */
    public static <L> Uni<Void> replaceLinks(
            PanacheRepositoryBase<L, ?> repository,
            List<L> current,
            Function<L, String> otherEnd,
            List<String> wanted,
            Function<String, L> link) {
        List<String> currentIds = current.stream().map(otherEnd).toList();
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (L existing : current) {
            if (!wanted.contains(otherEnd.apply(existing))) {
                chain = chain.flatMap(ok -> repository.delete(existing));
            }
        }
        List<L> added =
                wanted.stream().filter(id -> !currentIds.contains(id)).map(link).toList();
        return chain.flatMap(ok -> persistAll(repository, added)).flatMap(ok -> repository.flush());
    }

    /** Persists the rows, none included (Panache refuses an empty batch). */
    public static <E> Uni<Void> persistAll(PanacheRepositoryBase<E, ?> repository, List<E> rows) {
        return rows.isEmpty() ? Uni.createFrom().voidItem() : repository.persist(rows);
    }
}
