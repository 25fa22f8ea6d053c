package io.routegateway.state.repository;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;

/** {@code state_outbox}. */
@ApplicationScoped
public class OutboxRepository implements PanacheRepositoryBase<OutboxEntity, Long> {

    /** The oldest {@code limit} pending rows (not marked failed), in id (= commit order per key) order. */
    public Uni<List<OutboxEntity>> oldest(int limit) {
        return find("failedAt is null", Sort.by("id")).page(0, limit).list();
    }

    public Uni<Long> countPending() {
        return count("failedAt is null");
    }

    public Uni<Long> countFailed() {
        return count("failedAt is not null");
    }

    /**
     * Deletes a row the broker acknowledged and the older pending rows of its topic and key: they
     * were committed before it (one key's writers hold its row lock), so it supersedes them.
     */
    public Uni<Long> deleteCovered(OutboxEntity sent) {
        return delete(
                "topic = ?1 and messageKey = ?2 and id <= ?3 and failedAt is null",
                sent.topic,
                sent.messageKey,
                sent.id);
    }

    public Uni<Long> deleteByIds(List<Long> ids) {
        return ids.isEmpty() ? Uni.createFrom().item(0L) : delete("id in ?1", ids);
    }
}
