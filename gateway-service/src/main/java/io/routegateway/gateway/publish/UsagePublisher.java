package io.routegateway.gateway.publish;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.smallrye.reactive.messaging.MutinyEmitter;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Publishes one {@link RequestCompleted} per client request to {@link Topics#USAGE}, keyed by the
 * credential last tried (the access key id when none was selected). Never blocks or fails the
 * caller (see {@link BoundedPublisher}).
 */
@ApplicationScoped
public class UsagePublisher {

    /** The outgoing channel; {@code mp.messaging.outgoing.usage.*} maps it to {@code route.usage}. */
    public static final String USAGE_CHANNEL = "usage";

    private final BoundedPublisher publisher;
    private final Counter published;

    UsagePublisher(
            @Channel(USAGE_CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) MutinyEmitter<String> emitter,
            GatewayConfig config,
            GatewayMetrics metrics) {
        this.publisher = new BoundedPublisher(
                emitter, Topics.USAGE, config.publish().maxPending(), () -> metrics.dropped(Topics.USAGE));
        metrics.pendingGauge(Topics.USAGE, publisher::pending);
        this.published = metrics.publishedCounter(Topics.USAGE);
    }

    public void publish(RequestCompleted record) {
        String key = record.credentialId() != null ? record.credentialId() : record.accessKeyId();
        published.increment();
        publisher.publish(key, Json.write(record));
    }
}
