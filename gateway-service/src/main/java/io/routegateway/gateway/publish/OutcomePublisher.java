package io.routegateway.gateway.publish;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Counter;
import io.opentelemetry.context.Context;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.core.forward.SuccessCoalescer;
import io.routegateway.core.json.Json;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.view.CredentialStateArrived;
import io.routegateway.gateway.view.ReplicaIdentity;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Publishes this replica's outcome events to {@link Topics#OUTCOMES}, keyed by credential id so
 * that all events of one credential are applied in order. Every failure goes at once; successes
 * that change nothing in this replica's view are coalesced per credential and model ({@link
 * SuccessCoalescer}, {@code gateway.publish.success-window}): under load that is one message per
 * credential and model per window instead of one per request, for the gateway, the broker and
 * state-service alike. Every record names this replica ({@link ReplicaIdentity}), which skips its own
 * records when it reads its peers', and carries this gateway's producer signature ({@link
 * RecordSigning}), without which state-service applies nothing. Never blocks or fails the caller (see {@link BoundedPublisher}).
 * Application-scoped so the emitter is resolved on first use, after the messaging channels are
 * wired.
 */
@ApplicationScoped
public class OutcomePublisher {

    /** The outgoing channel; {@code mp.messaging.outgoing.outcomes.*} maps it to {@code route.outcomes}. */
    public static final String OUTCOMES_CHANNEL = "outcomes";

    static final Duration MAX_SUCCESS_WINDOW = Duration.ofMinutes(1);

    private final BoundedPublisher publisher;
    private final Counter published;
    private final Counter coalesced;
    private final Clock clock;
    private final Vertx vertx;
    /** Guarded by itself: both event loops record outcomes. */
    private final SuccessCoalescer successes;

    private final long timerId;

    OutcomePublisher(
            @Channel(OUTCOMES_CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) MutinyEmitter<String> emitter,
            GatewayConfig config,
            GatewayMetrics metrics,
            ReplicaIdentity replica,
            Clock clock,
            Vertx vertx,
            StateSigner signer,
            @ConfigProperty(name = "mp.messaging.outgoing.outcomes.topic", defaultValue = Topics.OUTCOMES)
                    String topic) {
        Duration window = config.publish().successWindow();
        if (window.isNegative() || window.compareTo(MAX_SUCCESS_WINDOW) > 0) {
            throw new IllegalArgumentException(
                    "gateway.publish.success-window must be between 0 and 1 minute, was " + window);
        }
        this.publisher = new BoundedPublisher(
                emitter,
                Topics.OUTCOMES,
                config.publish().maxPending(),
                records -> metrics.dropped(Topics.OUTCOMES, records),
                replica.originHeader(),
                new RecordSigning(signer, topic));
        metrics.pendingGauge(Topics.OUTCOMES, publisher::pending);
        this.published = metrics.publishedCounter(Topics.OUTCOMES);
        this.coalesced = metrics.coalescedSuccessesCounter();
        this.clock = clock;
        this.vertx = vertx;
        this.successes = new SuccessCoalescer(window);
        metrics.heldSuccessesGauge(this::heldNow);
        // a held success waits at most a window and a quarter of one
        this.timerId =
                window.isZero() ? -1 : vertx.setPeriodic(Math.max(10, window.toMillis() / 4), ignored -> releaseDue());
    }

    /**
     * Publishes {@code event} now, or holds it when it is a success coalesced into a later one.
     *
     * @param changedView whether the event changed this replica's view of its credential
     */
    public void publish(CredentialEvent event, boolean changedView) {
        publish(event, changedView, null);
    }

    /**
     * As {@link #publish(CredentialEvent, boolean)}, the record sent in {@code trace} (the attempt's
     * span: its traceparent rides on the record's headers, so state-service's apply joins the trace).
     * A coalesced success released later by the timer leaves without it.
     */
    public void publish(CredentialEvent event, boolean changedView, Context trace) {
        List<CredentialEvent> now;
        synchronized (successes) {
            now = successes.offer(event, changedView, clock.instant());
        }
        if (now.isEmpty()) {
            coalesced.increment();
        }
        for (CredentialEvent sent : now) {
            published.increment();
            publisher.publish(sent.credentialId(), Json.write(sent), sent == event ? trace : null);
        }
    }

    /**
     * State-service published these credentials' state: what this replica holds about them is
     * older than that state (a failure recorded elsewhere may be in it), so their held successes
     * are dropped rather than released later; the next success on such a credential changes this
     * replica's view and goes at once.
     */
    void stateArrived(@Observes CredentialStateArrived arrived) {
        Set<String> credentialIds = arrived.credentialIds();
        synchronized (successes) {
            successes.forget(credentialIds);
        }
    }

    void releaseDue() {
        List<CredentialEvent> due;
        synchronized (successes) {
            due = successes.due(clock.instant());
        }
        send(due);
    }

    @PreDestroy
    void close() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
        List<CredentialEvent> held;
        synchronized (successes) {
            held = successes.drain();
        }
        send(held);
    }

    private int heldNow() {
        synchronized (successes) {
            return successes.heldCount();
        }
    }

    /** How many successes of this credential are held now (for tests). */
    int held(String credentialId) {
        synchronized (successes) {
            return successes.heldCount(credentialId);
        }
    }

    private void send(List<CredentialEvent> events) {
        for (CredentialEvent event : events) {
            published.increment();
            publisher.publish(event.credentialId(), Json.write(event));
        }
    }
}
