package io.routegateway.state.repository;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code teams}. */
@ApplicationScoped
public class TeamRepository implements PanacheRepositoryBase<TeamEntity, String> {

    /** Locks the team row so its version and its outbox row are written in commit order. */
    public Uni<TeamEntity> findForUpdate(String id) {
        return findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** How many AccessKeys belong to the team. */
    public Uni<Long> keyCount(String teamId) {
        return getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select count(k) from AccessKeyEntity k where k.teamId = :teamId", Long.class)
                        .setParameter("teamId", teamId)
                        .getSingleResult());
    }

    /** How many AccessKeys belong to each of the teams; a team without keys is absent. */
    public Uni<Map<String, Long>> keyCounts(List<String> teamIds) {
        if (teamIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select k.teamId, count(k) from AccessKeyEntity k where k.teamId in :ids"
                                        + " group by k.teamId",
                                Object[].class)
                        .setParameter("ids", teamIds)
                        .getResultList())
                .map(rows -> {
                    Map<String, Long> counts = new HashMap<>();
                    for (Object[] row : rows) {
                        counts.put((String) row[0], ((Number) row[1]).longValue());
                    }
                    return counts;
                });
    }
}
