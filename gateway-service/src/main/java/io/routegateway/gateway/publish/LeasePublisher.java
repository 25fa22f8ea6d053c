package io.routegateway.gateway.publish;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.quarkus.runtime.ShutdownEvent;
import io.routegateway.core.event.JsonBatch;
import io.routegateway.core.event.LeaseBatch;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.LeaseJson;
import io.routegateway.core.event.Topics;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.view.ReplicaIdentity;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Publishes this replica's {@link LeaseEvent}s to {@link Topics#ADMISSIONS}, so that every replica
 * counts what every other admits. Leases gather for {@code gateway.admission.publish-window} (0 by default: each lease alone)
 * and leave as one {@link LeaseBatch} message keyed by this replica's id: one replica's messages stay
 * in order on one partition, and with them every phase of each of its leases (a lease has one
 * holder). A request pays a list append, not an emitter call and a Kafka send per lease: sending each
 * lease alone cost the gateway about 300 µs of CPU per limited request and stalled its event loops on
 * the emitter's lock (bench/admission.sh). With a window of 0 each lease goes alone, keyed by its
 * subject (team, key or credential). Every message names this replica ({@link ReplicaIdentity}); it
 * skips its own when it reads the topic. Messages go at once ({@code linger.ms=0}) and are given up
 * after a few seconds ({@code delivery.timeout.ms}), so a broker outage shows within {@code
 * gateway.admission.max-lag} ({@link #failingWithin}). Never blocks or fails the caller (see {@link
 * BoundedPublisher}).
 */
@ApplicationScoped
public class LeasePublisher {

    /** The outgoing channel; {@code mp.messaging.outgoing.admissions.*} maps it to {@code route.admissions}. */
    public static final String ADMISSIONS_CHANNEL = "admissions";

    static final Duration MAX_WINDOW = Duration.ofMillis(100);
    /** The most leases in one message (a batch also ends at {@link JsonBatch#MAX_CHARS}). */
    static final int MAX_BATCH_RECORDS = 500;

    private final BoundedPublisher publisher;
    private final Counter published;
    /** Null when the window is 0 (each lease alone). */
    private final BatchWindow window;

    @Inject
    LeasePublisher(
            @Channel(ADMISSIONS_CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
                    MutinyEmitter<String> emitter,
            GatewayConfig config,
            GatewayMetrics metrics,
            ReplicaIdentity replica,
            Vertx vertx) {
        this(
                new BoundedPublisher(
                        emitter,
                        Topics.ADMISSIONS,
                        config.publish().maxPending(),
                        records -> metrics.dropped(Topics.ADMISSIONS, records),
                        replica.originHeader()),
                metrics.publishedCounter(Topics.ADMISSIONS),
                vertx,
                config.admission().publishWindow(),
                replica.id());
        metrics.pendingGauge(Topics.ADMISSIONS, publisher::pending);
    }

    /** @param replicaId the key of every batch */
    LeasePublisher(BoundedPublisher publisher, Counter published, Vertx vertx, Duration window, String replicaId) {
        if (window.isNegative() || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException(
                    "gateway.admission.publish-window must be between 0 and 100 ms, was " + window);
        }
        this.publisher = publisher;
        this.published = published;
        this.window = window.isZero()
                ? null
                : new BatchWindow(
                        vertx,
                        window,
                        MAX_BATCH_RECORDS,
                        batch -> publisher.publish(replicaId, JsonBatch.encode(batch), batch.size()));
    }

    /**
     * Hands the lease to Kafka, in this window's batch; false when it was dropped (counted and
     * logged) as it was sent alone. A batch's drop is noticed later, by {@link #failingWithin}.
     */
    public boolean publish(LeaseEvent lease) {
        published.increment();
        if (window == null) {
            return publisher.publish(keyOf(lease), LeaseJson.write(lease), 1);
        }
        window.add(LeaseJson.write(lease));
        return true;
    }

    /** Sends the batch gathering now (the window's timer does this; also at shutdown). */
    void flush() {
        if (window != null) {
            window.flush();
        }
    }

    void stopping(@Observes ShutdownEvent shutdown) {
        flush();
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
