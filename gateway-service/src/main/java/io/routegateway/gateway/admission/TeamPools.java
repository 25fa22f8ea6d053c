package io.routegateway.gateway.admission;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.select.PoolView;

/**
 * Which teams draw on which groups (a key of the team lists the group), for fair share's "the
 * teams of this pool" ({@code PoolLoad#sharesPool}): derived once per pool view (the view is
 * replaced whole on every change, so its identity says when to derive again), then a look-up per
 * active team.
 */
final class TeamPools {

    private volatile Derived derived = new Derived(null, Map.of());

    /** Whether a team draws on one of {@code groupIds} in {@code view}. */
    Predicate<String> sharing(PoolView view, List<String> groupIds) {
        Map<String, Set<String>> groupsOf = groupsByTeam(view);
        return team -> {
            Set<String> groups = groupsOf.get(team);
            if (groups == null) {
                return false;
            }
            for (String groupId : groupIds) {
                if (groups.contains(groupId)) {
                    return true;
                }
            }
            return false;
        };
    }

    private Map<String, Set<String>> groupsByTeam(PoolView view) {
        Derived held = derived;
        if (held.view != view) {
            Map<String, Set<String>> byTeam = new HashMap<>();
            for (AccessKeySnapshot key : view.accessKeys()) {
                if (key.teamId() != null) {
                    byTeam.computeIfAbsent(key.teamId(), team -> new HashSet<>())
                            .addAll(key.groupIds());
                }
            }
            held = new Derived(view, byTeam);
            derived = held;
        }
        return held.groupsByTeam;
    }

    private record Derived(PoolView view, Map<String, Set<String>> groupsByTeam) {}
}
