package io.routegateway.gateway.metrics;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.routegateway.common.upstream.AddressRefused;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.hostpolicy.HostPolicy;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.telemetry.FailoverCause;
import io.routegateway.gateway.view.PoolViewHolder;
import io.routegateway.gateway.view.StateTopicsReader;

/**
 * The gateway's Micrometer meters (Prometheus at {@code /q/metrics}). Tagged meters are looked up
 * once per tag combination and cached, so the request path does no registry lookup.
 *
 * <ul>
 *   <li>{@code gateway_requests_total{protocol,status,reason}} — client requests by outcome;
 *   <li>{@code gateway_upstream_attempts_total{protocol,outcome}} — upstream attempts ({@code
 *       success}, {@code not_a_failure}, {@code transient}, {@code permanent}, {@code quota}, with
 *       same-credential retries counted as {@code retried});
 *   <li>{@code gateway_failovers_total{protocol,kind,scope}} — switches to another credential, by
 *       the failure that caused them (its kind label, and {@code account} or {@code model} scope);
 *   <li>{@code gateway_upstream_latency_seconds} — send to response head, per attempt (histogram);
 *   <li>{@code gateway_ttft_seconds} — request arrival to first byte sent to the client (histogram);
 *   <li>{@code gateway_view_lag_records}, {@code gateway_view_age_seconds} (since the view was
 *       last known current), {@code gateway_view_last_change_seconds}, {@code
 *       gateway_view_credentials} — how far behind and how stale the pool view is;
 *   <li>{@code gateway_view_state_delivery_seconds} (p50, p99) — from state-service sending a
 *       credential snapshot to this replica's view holding it (snapshots sent since the replica
 *       started; registered by {@link StateTopicsReader});
 *   <li>{@code gateway_view_records_skipped_total{topic,reason}} — state-topic records skipped
 *       ({@code unreadable}, {@code no_id}, {@code unapplicable}; registered by {@link
 *       StateTopicsReader});
 *   <li>{@code gateway_events_published_total{topic}} — outcome events or usage records handed to
 *       Kafka (each then is acknowledged, or dropped and counted below; usage records travel in
 *       batches, a record counts when it joins one); outcomes are published for failures and for
 *       successes that clear something, so this is less than the attempts;
 *   <li>{@code gateway_events_pending{topic}} — outcome events or usage records awaiting a Kafka
 *       acknowledgement (usage records still gathering in a batch are not counted);
 *   <li>{@code gateway_events_dropped_total{topic}} — outcome events or usage records dropped
 *       because too many were waiting for Kafka;
 *   <li>{@code gateway_admission_refusals_total{code,scope}} — requests admission refused;
 *   <li>{@code gateway_upstream_addresses_refused_total{reason}} — upstream connections not opened
 *       because the host resolved to an address the host policy refuses (DNS rebinding).
 * </ul>
 *
 * <p>The GenAI semantic conventions' metrics are in {@link GenAiMetrics} ({@link #genAi()}), the
 * pool's health gauges in {@link PoolMetrics}; docs/observability.md lists every metric.
 */
@Singleton
public class GatewayMetrics {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<RequestTags, Counter> requests = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<AttemptTags, Counter> attempts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<FailoverTags, Counter> failovers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> dropped = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> admissionRefusals = new ConcurrentHashMap<>();
    private final Timer upstreamLatency;
    private final Timer ttft;
    private final GenAiMetrics genAi;
    private final Counter slotWaitsStarted;
    private final Counter slotWaitsGivenUp;
    private final java.util.Map<String, Counter> addressesRefused = new java.util.HashMap<>();

    GatewayMetrics(MeterRegistry registry, PoolViewHolder holder, StateTopicsReader reader, Clock clock) {
        this.registry = registry;
        this.genAi = new GenAiMetrics(registry);
        this.slotWaitsStarted = slotWaits("started");
        this.slotWaitsGivenUp = slotWaits("gave_up");
        for (HostPolicy.Reason reason : HostPolicy.Reason.values()) {
            addressesRefused.put(
                    reason.wire(),
                    Counter.builder("gateway.upstream.addresses.refused")
                            .description("Upstream connections not opened: the host resolved to an address"
                                    + " the host policy refuses, by reason")
                            .tag("reason", reason.wire())
                            .register(registry));
        }
        this.upstreamLatency = Timer.builder("gateway.upstream.latency")
                .description("Time from sending an upstream request to its response head")
                .publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofMinutes(3))
                .register(registry);
        this.ttft = Timer.builder("gateway.ttft")
                .description("Time from a client request's arrival to the first byte sent back")
                .publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofMinutes(3))
                .register(registry);
        Gauge.builder("gateway.view.lag.records", reader, StateTopicsReader::lag)
                .description("State-topic records the pool view has not read yet")
                .register(registry);
        Gauge.builder(
                        "gateway.view.age.seconds",
                        reader,
                        r -> r.lastCurrentMillis() < 0 ? -1 : (clock.millis() - r.lastCurrentMillis()) / 1000.0)
                .description("Seconds since the pool view was last known to be current with the state topics")
                .register(registry);
        Gauge.builder(
                        "gateway.view.last.change.seconds",
                        reader,
                        r -> r.lastRecordMillis() < 0 ? -1 : (clock.millis() - r.lastRecordMillis()) / 1000.0)
                .description("Seconds since the pool view last applied a state-topic record")
                .register(registry);
        Gauge.builder(
                        "gateway.view.credentials",
                        holder,
                        h -> h.pool().credentials().size())
                .description("Credentials in the pool view")
                .register(registry);
    }

    public void request(Protocol protocol, int status, String reason) {
        requests.computeIfAbsent(
                        new RequestTags(protocol, status, reason),
                        tags -> Counter.builder("gateway.requests")
                                .description("Client requests by protocol, status and reason code")
                                .tag("protocol", tags.protocol == null ? "none" : tags.protocol.wire())
                                .tag("status", Integer.toString(tags.status))
                                .tag("reason", tags.reason == null ? "none" : tags.reason)
                                .register(registry))
                .increment();
    }

    public void attempt(Protocol protocol, String outcome) {
        attempts.computeIfAbsent(
                        new AttemptTags(protocol, outcome),
                        tags -> Counter.builder("gateway.upstream.attempts")
                                .description("Upstream attempts by protocol and outcome")
                                .tag("protocol", tags.protocol.wire())
                                .tag("outcome", tags.outcome)
                                .register(registry))
                .increment();
    }

    /**
     * A switch to another credential within one request.
     *
     * @param failure the verdict that ended the previous credential's attempts
     * @param modelKey the model key that credential was charged under, may be null
     */
    public void failover(Protocol protocol, Verdict failure, String modelKey) {
        FailoverCause cause = FailoverCause.of(failure, modelKey);
        failovers
                .computeIfAbsent(
                        new FailoverTags(protocol, cause),
                        tags -> Counter.builder("gateway.failovers")
                                .description("Switches to another credential within one client request, by the"
                                        + " failure's kind and scope")
                                .tag("protocol", tags.protocol.wire())
                                .tag("kind", tags.cause.kind())
                                .tag("scope", tags.cause.scope())
                                .register(registry))
                .increment();
    }

    public void upstreamLatency(long nanos) {
        if (nanos >= 0) {
            upstreamLatency.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** {@code gateway_upstream_addresses_refused_total{reason}}: fired by the upstream client. */
    void addressRefused(@Observes AddressRefused refused) {
        Counter counter = addressesRefused.get(refused.reason());
        if (counter != null) {
            counter.increment();
        }
    }

    public void ttft(long nanos) {
        ttft.record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * {@code gateway_admission_refusals_total{code,scope}}: requests admission refused, by error code
     * and by what held them back ({@code key}, {@code team}, {@code fair_share}, {@code unshared}).
     */
    public void admissionRefused(String code, String scope) {
        admissionRefusals
                .computeIfAbsent(
                        code + '|' + scope,
                        ignored -> Counter.builder("gateway.admission.refusals")
                                .description("Requests refused by a key's or team's limits, by code and scope")
                                .tag("code", code)
                                .tag("scope", scope)
                                .register(registry))
                .increment();
    }

    /**
     * {@code gateway_admission_slot_waits_total{outcome}}: requests that found only full credentials
     * and began to wait for a slot ({@code started}), and those whose wait ran out ({@code gave_up}).
     */
    public void slotWait(boolean gaveUp) {
        (gaveUp ? slotWaitsGivenUp : slotWaitsStarted).increment();
    }

    private Counter slotWaits(String outcome) {
        return Counter.builder("gateway.admission.slot.waits")
                .description("Requests that waited for a slot of a pool whose credentials were all full, by outcome")
                .tag("outcome", outcome)
                .register(registry);
    }

    public void dropped(String topic, int records) {
        dropped.computeIfAbsent(
                        topic,
                        t -> Counter.builder("gateway.events.dropped")
                                .description("Outcome or usage records dropped because too many awaited Kafka")
                                .tag("topic", t)
                                .register(registry))
                .increment(records);
    }

    /** The {@code gateway_events_published_total{topic}} counter, to keep by its publisher. */
    public Counter publishedCounter(String topic) {
        return Counter.builder("gateway.events.published")
                .description("Outcome events or usage records handed to Kafka (then acknowledged or dropped)")
                .tag("topic", topic)
                .register(registry);
    }

    /**
     * {@code gateway_outcome_successes_coalesced_total}: successes held to be published as a later
     * one of their credential and model ({@code gateway.publish.success-window}).
     */
    public Counter coalescedSuccessesCounter() {
        return Counter.builder("gateway.outcome.successes.coalesced")
                .description("Successes that changed nothing in this replica's view, held and covered by a later"
                        + " success of their credential and model")
                .register(registry);
    }

    /**
     * {@code gateway_outcome_successes_held}: successes held now, to be published when their window
     * ends (or ahead of their credential's next failure).
     */
    public void heldSuccessesGauge(IntSupplier held) {
        Gauge.builder("gateway.outcome.successes.held", held::getAsInt)
                .description("Successes held now, published when their credential and model's window ends")
                .register(registry);
    }

    /** {@code gateway_events_pending{topic}}: records awaiting a Kafka acknowledgement. */
    public void pendingGauge(String topic, IntSupplier pending) {
        Gauge.builder("gateway.events.pending", pending, IntSupplier::getAsInt)
                .description("Outcome or usage records awaiting a Kafka acknowledgement")
                .tag("topic", topic)
                // the supplier is a method reference nothing else holds: a weak one would read NaN
                .strongReference(true)
                .register(registry);
    }

    /** The GenAI semantic conventions' metrics, recorded once per settled request. */
    public GenAiMetrics genAi() {
        return genAi;
    }

    public double droppedCount(String topic) {
        Counter counter = dropped.get(topic);
        return counter == null ? 0 : counter.count();
    }

    private record RequestTags(Protocol protocol, int status, String reason) {}

    private record AttemptTags(Protocol protocol, String outcome) {}

    private record FailoverTags(Protocol protocol, FailoverCause cause) {}
}
