package io.routegateway.gateway.view;

import java.util.Map;
import java.util.Set;

import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.NativeRouting;
import io.routegateway.core.select.PoolView;

/**
 * One immutable generation of the pool view plus what every request derives from it once: the
 * credentials that cannot serve each protocol natively.
 */
public record RoutingView(PoolView pool, Map<Protocol, Set<String>> nonNative) {

    public static final RoutingView EMPTY = of(PoolView.EMPTY);

    public static RoutingView of(PoolView pool) {
        return new RoutingView(pool, NativeRouting.nonNativeByProtocol(pool));
    }

    public Set<String> nonNative(Protocol protocol) {
        return nonNative.get(protocol);
    }
}
