package io.routegateway.state.routecheck;

import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.select.Router;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.repository.TeamRepository;
import io.routegateway.state.spend.SpendReader;
import io.routegateway.state.spend.SpendRules;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/**
 * Route check: builds the routing view from the database rows — the same snapshots the gateways
 * build theirs from — and lets {@link RouteCheckRules} check the input and run route-core's
 * {@link Router#route} over it with the trace on: the gateway's
 * own routing call, protocol rule included (bridges, the group's bridging policy, a body the
 * conversion cannot express), so a request the gateway refuses with {@code native_route_required}
 * or {@code operation_unsupported} is reported that way here too, and a selected credential names
 * the bridge the request would take. Then the key's team and the spend of its and its team's budget
 * windows are read, and {@link RouteCheckRules#admission} says whether a budget would refuse the
 * request first. Nothing is sent upstream and nothing is
 * written. Differences from a live gateway: no recent outcome counts (auto weights are the
 * no-history 50), no affinity memory unless one is simulated, the check is the request's first
 * attempt (the cooling probe not yet spent), and no live rate, token or concurrency counts of keys
 * or teams. A credential at its own limits is skipped with {@code credential_full} as the gateways'
 * attempt leases say ({@link CredentialLoad}).
 */
@ApplicationScoped
public class RouteCheckService {

    private final PoolReader pool;
    private final TeamRepository teams;
    private final SpendReader spend;
    private final CredentialLoad load;
    private final Clock clock;

    RouteCheckService(PoolReader pool, TeamRepository teams, SpendReader spend, CredentialLoad load, Clock clock) {
        this.pool = pool;
        this.load = load;
        this.teams = teams;
        this.spend = spend;
        this.clock = clock;
    }

    /**
     * @param onlyTeam a team role's team: only its team's keys are checked ({@link
     *     RouteCheckRules#requireTeamKey}); null: any key
     */
    public Uni<RouteCheckView> check(JsonBody<RouteCheckInput> body, String onlyTeam) {
        RouteCheckRules.Checked checked = RouteCheckRules.check(body.value());
        return pool.read().flatMap(stored -> {
            Instant now = clock.instant();
            PoolView view = stored.view(now);
            AccessKeySnapshot key = RouteCheckRules.key(checked, view);
            RouteCheckRules.requireTeamKey(checked, key, onlyTeam);
            RouteCheckView routed = RouteCheckRules.route(checked, view, load.full(now), now);
            if (key == null) {
                return Uni.createFrom().item(routed);
            }
            return team(key.teamId(), now)
                    .flatMap(team -> budget(SpendSnapshot.KEY, key.accessKeyId(), key.limits(), now)
                            .flatMap(keySpend -> budget(
                                            SpendSnapshot.TEAM, key.teamId(), team == null ? null : team.limits(), now)
                                    .map(teamSpend ->
                                            RouteCheckRules.admission(routed, key, team, keySpend, teamSpend))));
        });
    }

    private Uni<TeamSnapshot> team(String teamId, Instant now) {
        if (teamId == null) {
            return Uni.createFrom().nullItem();
        }
        return Panache.withSession(() -> teams.findById(teamId))
                .map(row -> row == null ? null : StateRows.teamSnapshot(row, now));
    }

    /** The subject's current window when it has a budget, else null. */
    private Uni<SpendRules.Totals> budget(String kind, String id, Limits limits, Instant now) {
        if (limits == null || limits.maxBudget() == null) {
            return Uni.createFrom().nullItem();
        }
        return spend.totals(new SpendRules.Subject(kind, id), limits, now);
    }
}
