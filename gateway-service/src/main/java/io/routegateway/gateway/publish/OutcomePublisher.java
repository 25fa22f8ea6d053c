package io.routegateway.gateway.publish;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.smallrye.reactive.messaging.MutinyEmitter;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Publishes one {@link CredentialEvent} per counted upstream attempt to {@link Topics#OUTCOMES},
 * keyed by credential id so that all events of one credential are applied in order. Never blocks
 * or fails the caller (see {@link BoundedPublisher}). Application-scoped so the emitter is resolved
 * on first use, after the messaging channels are wired.
 */
@ApplicationScoped
public class OutcomePublisher {

    /** The outgoing channel; {@code mp.messaging.outgoing.outcomes.*} maps it to {@code route.outcomes}. */
    public static final String OUTCOMES_CHANNEL = "outcomes";

    private final BoundedPublisher publisher;
    private final Counter published;

    OutcomePublisher(
            @Channel(OUTCOMES_CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) MutinyEmitter<String> emitter,
            GatewayConfig config,
            GatewayMetrics metrics) {
        this.publisher = new BoundedPublisher(
                emitter, Topics.OUTCOMES, config.publish().maxPending(), () -> metrics.dropped(Topics.OUTCOMES));
        metrics.pendingGauge(Topics.OUTCOMES, publisher::pending);
        this.published = metrics.publishedCounter(Topics.OUTCOMES);
    }

    public void publish(CredentialEvent event) {
        published.increment();
        publisher.publish(event.credentialId(), Json.write(event));
    }
}
