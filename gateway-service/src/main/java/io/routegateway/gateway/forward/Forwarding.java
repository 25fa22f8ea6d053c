package io.routegateway.gateway.forward;

import java.time.Clock;
import java.util.function.Supplier;

import io.routegateway.common.upstream.UpstreamClient;
import io.routegateway.common.upstream.UpstreamTimeouts;
import io.routegateway.core.select.AffinityTable;
import io.routegateway.gateway.admission.AdmissionStage;
import io.routegateway.gateway.admission.LeaseLedger;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.trace.RequestTracing;
import io.routegateway.gateway.view.PoolViewHolder;
import io.vertx.core.Vertx;

/**
 * What every request's exchange shares, built once by {@link ForwardingService}: immutable, so an
 * exchange reads it without asking who else does.
 *
 * @param affinity the session-affinity memory as the runtime settings size it now
 * @param maxCredentials {@code gateway.retry.max-credentials}
 * @param maxResponseBytes {@code gateway.upstream.max-response-size}
 * @param slotWaitMillis {@code gateway.admission.slot-wait}
 * @param leases the admissions count: attempt leases, and the credentials at their own limits
 * @param admission closes an admitted request's lease at its settlement
 * @param tracing the request's and its attempts' spans
 */
record Forwarding(
        PoolViewHolder views,
        UpstreamClient upstream,
        UpstreamTimeouts timeouts,
        SecretCache secrets,
        TokenCounter tokens,
        AttemptRecorder recorder,
        Refusals refusals,
        GatewayMetrics metrics,
        Clock clock,
        Vertx vertx,
        Supplier<AffinityTable> affinity,
        int maxCredentials,
        long maxResponseBytes,
        long slotWaitMillis,
        LeaseLedger leases,
        AdmissionStage admission,
        RequestTracing tracing) {}
