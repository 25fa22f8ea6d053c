package io.routegateway.state.spend;

import java.time.ZoneId;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.common.config.RouteConfig;
import io.routegateway.core.recovery.DefaultZone;

/**
 * The zone budget windows are calendar windows in: {@code route.default-time-zone} (the key
 * recovery rules read too), else the JVM's. Every reader of a window (usage batches, the spend
 * answers, the route check, the start-up republication) takes it from here.
 */
@ApplicationScoped
public class SpendZone {

    private final ZoneId zone;

    SpendZone(RouteConfig routeConfig) {
        this.zone = DefaultZone.resolve(routeConfig.defaultTimeZone(), Optional.empty(), ZoneId.systemDefault());
    }

    public ZoneId zone() {
        return zone;
    }
}
