package io.routegateway.state.team;

import java.time.Instant;

import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.limits.Limits;

/**
 * A team as the admin API shows it.
 *
 * @param limits all five fields, null = no limit
 * @param keyCount AccessKeys that belong to the team
 */
public record TeamView(
        String id,
        String name,
        Limits limits,
        int weight,
        long keyCount,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    /** The view of a team as its snapshot carries it. */
    static TeamView of(TeamSnapshot snapshot, long keyCount, Instant createdAt, Instant updatedAt) {
        return new TeamView(
                snapshot.teamId(),
                snapshot.name(),
                snapshot.limits(),
                snapshot.weight(),
                keyCount,
                createdAt,
                updatedAt,
                snapshot.version());
    }
}
