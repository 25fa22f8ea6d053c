package io.routegateway.gateway.publish;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.view.ReplicaIdentity;
import io.smallrye.reactive.messaging.MutinyEmitter;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Publishes this replica's {@link LeaseEvent}s to {@link Topics#ADMISSIONS}, so that every replica
 * counts what every other admits. A request's lease is keyed by its team id (else its key id), an
 * attempt's by its credential id, so one subject's phases stay in order on one partition. Every
 * record names this replica ({@link ReplicaIdentity}); it skips its own when it reads the topic. Sent
 * at once ({@code linger.ms=0}) and given up after a few seconds ({@code delivery.timeout.ms}), so a
 * broker outage shows within {@code gateway.admission.max-lag} ({@link #failingWithin}). Never blocks
 * or fails the caller (see {@link BoundedPublisher}).
 */
@ApplicationScoped
public class LeasePublisher {

    /** The outgoing channel; {@code mp.messaging.outgoing.admissions.*} maps it to {@code route.admissions}. */
    public static final String ADMISSIONS_CHANNEL = "admissions";

    private final BoundedPublisher publisher;
    private final Counter published;

    LeasePublisher(
            @Channel(ADMISSIONS_CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
                    MutinyEmitter<String> emitter,
            GatewayConfig config,
            GatewayMetrics metrics,
            ReplicaIdentity replica) {
        this.publisher = new BoundedPublisher(
                emitter,
                Topics.ADMISSIONS,
                config.publish().maxPending(),
                records -> metrics.dropped(Topics.ADMISSIONS, records),
                replica.originHeader());
        metrics.pendingGauge(Topics.ADMISSIONS, publisher::pending);
        this.published = metrics.publishedCounter(Topics.ADMISSIONS);
    }

    /** Hands the lease to Kafka; false when it was dropped (counted and logged). */
    public boolean publish(LeaseEvent lease) {
        published.increment();
        return publisher.publish(keyOf(lease), Json.write(lease), 1);
    }

    /** Whether a lease was dropped (refused by Kafka, or too many waiting) within the last {@code millis}. */
    public boolean failingWithin(long millis) {
        long last = publisher.lastDropMillis();
        return last > 0 && System.currentTimeMillis() - last < millis;
    }

    public static String keyOf(LeaseEvent lease) {
        if (lease.kind() == LeaseEvent.Kind.ATTEMPT && lease.credentialId() != null) {
            return lease.credentialId();
        }
        return lease.teamId() != null ? lease.teamId() : lease.accessKeyId();
    }
}
