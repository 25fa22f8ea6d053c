package io.routegateway.gateway.forward;

import java.time.Clock;
import java.time.Duration;

import jakarta.inject.Singleton;

import io.opentelemetry.context.Context;
import io.routegateway.common.upstream.UpstreamClient;
import io.routegateway.common.upstream.UpstreamTimeouts;
import io.routegateway.core.select.AffinityTable;
import io.routegateway.gateway.admission.AdmissionStage;
import io.routegateway.gateway.admission.LeaseLedger;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.publish.OutcomePublisher;
import io.routegateway.gateway.publish.UsagePublisher;
import io.routegateway.gateway.trace.RequestTracing;
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

    private final Forwarding forwarding;
    private final UsagePublisher usage;
    private final GatewayMetrics metrics;
    private final Clock clock;
    private final PoolViewHolder views;
    private final Duration configuredAffinityTtl;
    private final int configuredAffinityCapacity;
    /** Session-affinity memory; thread-safe by its own monitor. Replaced when its settings change. */
    private volatile AffinityTable affinity;

    ForwardingService(
            PoolViewHolder views,
            UpstreamClient upstream,
            SecretCache secrets,
            TokenCounter tokens,
            LocalOutcomes localOutcomes,
            OutcomeWindow window,
            OutcomePublisher outcomes,
            UsagePublisher usage,
            Refusals refusals,
            GatewayMetrics metrics,
            Clock clock,
            Vertx vertx,
            GatewayConfig config,
            LeaseLedger leases,
            AdmissionStage admission,
            RequestTracing tracing) {
        this.views = views;
        this.usage = usage;
        this.metrics = metrics;
        this.clock = clock;
        this.configuredAffinityTtl = config.affinity().ttl();
        this.configuredAffinityCapacity = config.affinity().capacity();
        this.affinity = new AffinityTable(configuredAffinityTtl, configuredAffinityCapacity);
        this.forwarding = new Forwarding(
                views,
                upstream,
                UpstreamTimeouts.of(
                        config.upstream().connectTimeout(),
                        config.upstream().readGapTimeout(),
                        GatewayConfig.UPSTREAM_PREFIX),
                secrets,
                tokens,
                new AttemptRecorder(localOutcomes, outcomes, window, clock, this::affinity),
                refusals,
                metrics,
                clock,
                vertx,
                this::affinity,
                config.retry().maxCredentials(),
                config.upstream().maxResponseSize().asLongValue(),
                config.admission().slotWait().toMillis(),
                leases,
                admission,
                tracing);
    }

    /**
     * The session-affinity memory, sized by the runtime settings published on {@code route.settings}
     * ({@code gateway.affinity.*} until any were). When the published TTL or capacity differ from
     * the current table's, the table is rebuilt with them: the entries it remembered are lost, so
     * the next request of each session is routed afresh (acceptable: affinity is a preference).
     */
    public AffinityTable affinity() {
        AffinitySettings wanted =
                AffinitySettings.effective(views.settings(), configuredAffinityTtl, configuredAffinityCapacity);
        AffinityTable table = affinity;
        if (wanted.fits(table)) {
            return table;
        }
        synchronized (this) {
            if (!wanted.fits(affinity)) {
                affinity = new AffinityTable(wanted.ttl(), wanted.capacity());
            }
            return affinity;
        }
    }

    /** Takes over the client response of {@code ctx}; must be called on the request's event loop. */
    public void forward(RoutingContext ctx, ProxyRequest request) {
        // the server span of the client request (Quarkus's), the parent of every attempt's span
        Context trace = forwarding.tracing().requestContext();
        forwarding
                .tracing()
                .requestStarted(
                        trace,
                        request.requestId().toString(),
                        request.accessKey().accessKeyId(),
                        request.operation(),
                        request.protocol(),
                        request.requestedModel());
        new RequestExchange(
                        forwarding,
                        new Settlement(
                                usage, metrics, clock, forwarding.admission(), forwarding.tracing(), trace, request),
                        ctx,
                        request,
                        trace)
                .start();
    }
}
