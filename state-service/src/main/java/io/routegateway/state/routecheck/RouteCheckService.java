package io.routegateway.state.routecheck;

import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.select.Router;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/**
 * Route check: builds the routing view from the database rows — the same snapshots the gateways
 * build theirs from — and lets {@link RouteCheckRules} check the input and run route-core's
 * {@link Router#route} over it with the trace on: the gateway's
 * own routing call, protocol rule included (bridges, the group's bridging policy, a body the
 * conversion cannot express), so a request the gateway refuses with {@code native_route_required}
 * or {@code operation_unsupported} is reported that way here too, and a selected credential names
 * the bridge the request would take. Nothing is sent upstream and nothing is
 * written. Differences from a live gateway: no recent outcome counts (auto weights are the
 * no-history 50), no affinity memory unless one is simulated, and the check is the request's first
 * attempt (the cooling probe not yet spent).
 */
@ApplicationScoped
public class RouteCheckService {

    private final PoolReader pool;
    private final Clock clock;

    RouteCheckService(PoolReader pool, Clock clock) {
        this.pool = pool;
        this.clock = clock;
    }

    public Uni<RouteCheckView> check(JsonBody<RouteCheckInput> body) {
        RouteCheckRules.Checked checked = RouteCheckRules.check(body.value());
        return pool.read().map(stored -> {
            Instant now = clock.instant();
            return RouteCheckRules.route(checked, stored.view(now), now);
        });
    }
}
