package io.routegateway.gateway.forward;

import java.time.Clock;

import jakarta.inject.Singleton;

import io.routegateway.common.upstream.UpstreamClient;
import io.routegateway.common.upstream.UpstreamTimeouts;
import io.routegateway.core.select.AffinityTable;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.publish.OutcomePublisher;
import io.routegateway.gateway.publish.UsagePublisher;
import io.routegateway.gateway.view.LocalOutcomes;
import io.routegateway.gateway.view.OutcomeWindow;
import io.routegateway.gateway.view.PoolViewHolder;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;

/**
 * Forwards authenticated requests: routing, the upstream exchange, the retry loop, the client
 * response and the records of it. Holds what all requests share; each request's own progress lives
 * in a {@link RequestExchange} confined to the request's event loop.
 */
@Singleton
public class ForwardingService {

    final PoolViewHolder views;
    final UpstreamClient upstream;
    final SecretCache secrets;
    final LocalOutcomes localOutcomes;
    final OutcomeWindow window;
    final OutcomePublisher outcomes;
    final UsagePublisher usage;
    final GatewayMetrics metrics;
    final Clock clock;
    final Vertx vertx;
    final UpstreamTimeouts timeouts;
    final int maxCredentials;
    /** Session-affinity memory; thread-safe by its own monitor. */
    final AffinityTable affinity;

    ForwardingService(
            PoolViewHolder views,
            UpstreamClient upstream,
            SecretCache secrets,
            LocalOutcomes localOutcomes,
            OutcomeWindow window,
            OutcomePublisher outcomes,
            UsagePublisher usage,
            GatewayMetrics metrics,
            Clock clock,
            Vertx vertx,
            GatewayConfig config) {
        this.views = views;
        this.upstream = upstream;
        this.secrets = secrets;
        this.localOutcomes = localOutcomes;
        this.window = window;
        this.outcomes = outcomes;
        this.usage = usage;
        this.metrics = metrics;
        this.clock = clock;
        this.vertx = vertx;
        this.timeouts = UpstreamTimeouts.of(
                config.upstream().connectTimeout(), config.upstream().readGapTimeout(), GatewayConfig.UPSTREAM_PREFIX);
        this.maxCredentials = config.retry().maxCredentials();
        this.affinity =
                new AffinityTable(config.affinity().ttl(), config.affinity().capacity());
    }

    /** Takes over the client response of {@code ctx}; must be called on the request's event loop. */
    public void forward(RoutingContext ctx, ProxyRequest request) {
        new RequestExchange(this, ctx, request).start();
    }
}
