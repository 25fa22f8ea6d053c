package io.routegateway.gateway.view;

import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;

/**
 * What admission reads of the state topics besides the pool: the teams of {@link Topics#TEAMS}
 * (their limits and fair-share weight) and the settled spend of {@link Topics#SPEND} per key and
 * team. Folded by {@link StateTopicsReader} from verified records like the rest of the view; versions
 * only move forward and a tombstone removes the entry. Lock-free reads on the request path.
 */
@Singleton
public class LimitsView {

    private final ConcurrentHashMap<String, TeamSnapshot> teams = new ConcurrentHashMap<>();
    /** By {@link SpendSnapshot#recordKey}. */
    private final ConcurrentHashMap<String, SpendSnapshot> spend = new ConcurrentHashMap<>();

    /** The team, or null when none of that id is known. */
    public TeamSnapshot team(String teamId) {
        return teamId == null ? null : teams.get(teamId);
    }

    /** The settled spend of a key or team ({@link SpendSnapshot#KEY}, {@link SpendSnapshot#TEAM}), or null. */
    public SpendSnapshot spend(String subject, String subjectId) {
        return subjectId == null ? null : spend.get(SpendSnapshot.recordKey(subject, subjectId));
    }

    /** A team's fair-share weight; {@link TeamSnapshot#DEFAULT_WEIGHT} for a team not known. */
    public int weight(String teamId) {
        TeamSnapshot team = team(teamId);
        return team == null ? TeamSnapshot.DEFAULT_WEIGHT : team.weight();
    }

    /** Teams known now. */
    public int teamCount() {
        return teams.size();
    }

    /**
     * Applies one change read from {@link Topics#TEAMS} or {@link Topics#SPEND}: a snapshot of a
     * higher version than the held one, or a removal.
     *
     * @return whether it changed anything
     */
    boolean apply(Object change) {
        if (change instanceof TeamSnapshot team) {
            return newer(teams, team.teamId(), team, team.version());
        }
        if (change instanceof SpendSnapshot snapshot) {
            return newer(
                    spend,
                    SpendSnapshot.recordKey(snapshot.subject(), snapshot.subjectId()),
                    snapshot,
                    snapshot.version());
        }
        if (change instanceof StateFold.Removed removed) {
            return switch (removed.topic()) {
                case Topics.TEAMS -> teams.remove(removed.id()) != null;
                case Topics.SPEND -> spend.remove(removed.id()) != null;
                default -> false;
            };
        }
        return false;
    }

    private static <T> boolean newer(ConcurrentHashMap<String, T> held, String id, T next, long version) {
        boolean[] changed = {false};
        held.compute(id, (ignored, current) -> {
            if (current == null || version > versionOf(current)) {
                changed[0] = true;
                return next;
            }
            return current;
        });
        return changed[0];
    }

    private static long versionOf(Object snapshot) {
        return snapshot instanceof TeamSnapshot team ? team.version() : ((SpendSnapshot) snapshot).version();
    }
}
