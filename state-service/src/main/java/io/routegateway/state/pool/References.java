package io.routegateway.state.pool;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.repository.GroupRepository;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.smallrye.mutiny.Uni;

/**
 * Checks that group and team ids a write refers to exist, so no dangling reference is ever stored. Only ids are
 * read: no entity becomes managed here, so a row the caller locks later is read fresh under its lock.
 */
@ApplicationScoped
public class References {

    private final GroupRepository groups;

    References(GroupRepository groups) {
        this.groups = groups;
    }

    /** Fails with {@code validation.group_ids} naming every id that does not exist. */
    public Uni<Void> requireGroups(List<String> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return groups.getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select g.id from GroupEntity g where g.id in :ids", String.class)
                        .setParameter("ids", ids)
                        .getResultList())
                .invoke(existing -> requireAll(ids, existing, AdminCodes.GROUP_IDS, "group"))
                .replaceWithVoid();
    }

    /**
     * Fails with {@code validation.team_id} when no team has the id; otherwise holds the team's row
     * {@code FOR SHARE} until the caller's transaction ends, so the team cannot be deleted before the
     * key that joins it is stored (the delete counts the team's keys under its row lock).
     */
    public Uni<Void> requireTeam(String teamId) {
        return groups.getSession()
                .flatMap(session -> session.createNativeQuery(
                                "SELECT id FROM teams WHERE id = :id FOR SHARE", String.class)
                        .setParameter("id", teamId)
                        .getResultList())
                .invoke(found -> {
                    if (found.isEmpty()) {
                        throw AdminException.invalid(AdminCodes.TEAM_ID, "team_id names no team");
                    }
                })
                .replaceWithVoid();
    }

    private static void requireAll(List<String> wanted, List<String> found, String code, String what) {
        Set<String> existing = new HashSet<>(found);
        List<String> missing = new ArrayList<>();
        for (String id : wanted) {
            if (!existing.contains(id)) {
                missing.add(id);
            }
        }
        if (!missing.isEmpty()) {
            throw AdminException.invalid(code, "unknown " + what + " ids: " + missing);
        }
    }
}
