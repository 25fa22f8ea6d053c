package io.routegateway.gateway.forward;

import java.time.Clock;
import java.util.List;
import java.util.UUID;

import io.opentelemetry.context.Context;
import io.routegateway.core.event.AttemptStep;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.usage.TokenUsage;
import io.routegateway.gateway.admission.AdmissionStage;
import io.routegateway.gateway.admission.Ticket;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.publish.UsagePublisher;
import io.routegateway.gateway.trace.RequestTracing;

/**
 * The end of one forwarded request, exactly once: its request metric, its GenAI metrics and its usage
 * record (with its key's team and the token details priced apart: cache reads, 5-minute and 1-hour
 * cache writes, reasoning), with the time to the first byte sent, and the close of its admission
 * lease. Keeps only what the record needs of the request (never its body, so a committed stream does
 * not hold its prompt).
 */
final class Settlement {

    private final UsagePublisher usage;
    private final GatewayMetrics metrics;
    private final Clock clock;
    private final AdmissionStage admission;
    private final Ticket ticket;
    private final UUID requestId;
    private final Protocol protocol;
    private final String accessKeyId;
    private final String requestedModel;
    private final boolean clientStream;
    private final long arrivedNanos;
    private final Operation operation;
    private final RequestTracing tracing;
    /** The client request's trace context (its server span). */
    private final Context trace;

    private Long ttftMillis;
    private long ttftNanos = -1;
    private boolean settled;

    Settlement(
            UsagePublisher usage,
            GatewayMetrics metrics,
            Clock clock,
            AdmissionStage admission,
            RequestTracing tracing,
            Context trace,
            ProxyRequest request) {
        this.tracing = tracing;
        this.trace = trace;
        this.usage = usage;
        this.metrics = metrics;
        this.clock = clock;
        this.admission = admission;
        this.ticket = request.admission();
        this.requestId = request.requestId();
        this.protocol = request.protocol();
        this.accessKeyId = request.accessKey().accessKeyId();
        this.requestedModel = request.requestedModel();
        this.clientStream = request.clientStream();
        this.arrivedNanos = request.arrivedNanos();
        this.operation = request.operation();
    }

    /** The first byte of the answer leaves now: the time to first token. */
    void firstByteSent() {
        long nanos = System.nanoTime() - arrivedNanos;
        ttftMillis = nanos / 1_000_000;
        ttftNanos = nanos;
        metrics.ttft(nanos);
    }

    boolean settled() {
        return settled;
    }

    /**
     * @param selected the credential of the last attempt, null when none was selected
     * @param attempts upstream attempts made
     * @param chain those attempts, bounded ({@link io.routegateway.core.forward.AttemptChain}), null
     *     when none was made
     */
    void settle(
            RouteResult.Selected selected,
            int attempts,
            int status,
            String reasonCode,
            boolean success,
            TokenUsage tokens,
            boolean disconnected,
            List<AttemptStep> chain) {
        if (settled) {
            return;
        }
        settled = true;
        metrics.request(protocol, status, reasonCode);
        metrics.genAi()
                .completed(
                        operation,
                        protocol,
                        selected == null ? null : selected.credential(),
                        selected == null ? null : selected.modelKey(),
                        status,
                        success,
                        tokens,
                        System.nanoTime() - arrivedNanos,
                        ttftNanos);
        RequestCompleted record = RequestCompleted.settled(
                        requestId,
                        clock.instant(),
                        protocol,
                        accessKeyId,
                        selected == null ? null : selected.group().groupId(),
                        selected == null ? null : selected.credential().credentialId(),
                        requestedModel,
                        selected == null ? null : selected.modelKey(),
                        attempts,
                        status,
                        reasonCode,
                        (System.nanoTime() - arrivedNanos) / 1_000_000,
                        ttftMillis,
                        tokens.inputTokens(),
                        tokens.outputTokens(),
                        clientStream,
                        disconnected,
                        success)
                .withTeam(ticket.teamId())
                .withTokenDetails(
                        tokens.cacheReadTokens(),
                        tokens.cacheWrite5mTokens(),
                        tokens.cacheWrite1hTokens(),
                        tokens.reasoningTokens())
                .withAttemptChain(chain);
        tracing.settled(trace, reasonCode, tokens);
        usage.publish(record, trace);
        admission.settled(ticket, record);
    }
}
