package io.routegateway.gateway.publish;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.ShutdownEvent;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.core.json.Json;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.vertx.core.Vertx;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Publishes one {@link RequestCompleted} per client request to {@link Topics#USAGE}. Records gather
 * for up to {@code gateway.publish.usage-batch-window} and leave as one {@link UsageBatch} message
 * (no key: any partition will do, state-service stores by request id), so a request pays a list
 * append instead of a Kafka send and a producer wake-up; a zero window sends each record alone,
 * keyed by the credential last tried (the access key id when none was selected). Every message, a
 * batch or a record alone, carries one producer signature ({@link RecordSigning}): the signing cost
 * is per message, not per record. Never blocks or
 * fails the caller (see {@link BoundedPublisher}); the batch still gathering is sent at shutdown.
 */
@ApplicationScoped
public class UsagePublisher {

    /** The outgoing channel; {@code mp.messaging.outgoing.usage.*} maps it to {@code route.usage}. */
    public static final String USAGE_CHANNEL = "usage";

    static final Duration MAX_BATCH_WINDOW = Duration.ofSeconds(1);

    private final BoundedPublisher publisher;
    private final Counter published;
    private final long windowMs;
    /** Null when the window is 0 (each record alone). */
    private final BatchWindow window;

    @Inject
    UsagePublisher(
            @Channel(USAGE_CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) MutinyEmitter<String> emitter,
            GatewayConfig config,
            GatewayMetrics metrics,
            Vertx vertx,
            StateSigner signer,
            @ConfigProperty(name = "mp.messaging.outgoing.usage.topic", defaultValue = Topics.USAGE) String topic) {
        this(
                new BoundedPublisher(
                        emitter,
                        Topics.USAGE,
                        config.publish().maxPending(),
                        records -> metrics.dropped(Topics.USAGE, records),
                        null,
                        new RecordSigning(signer, topic)),
                metrics.publishedCounter(Topics.USAGE),
                vertx,
                config.publish().usageBatchWindow(),
                config.publish().usageBatchMaxRecords());
        metrics.pendingGauge(Topics.USAGE, publisher::pending);
    }

    UsagePublisher(BoundedPublisher publisher, Counter published, Vertx vertx, Duration window, int maxRecords) {
        if (window.isNegative() || window.compareTo(MAX_BATCH_WINDOW) > 0) {
            throw new IllegalArgumentException(
                    "gateway.publish.usage-batch-window must be between 0 and 1 second, was " + window);
        }
        this.publisher = publisher;
        this.published = published;
        this.windowMs = window.toMillis();
        this.window = windowMs == 0
                ? null
                : new BatchWindow(
                        vertx,
                        window,
                        maxRecords,
                        batch -> publisher.publish(null, UsageBatch.encode(batch), batch.size()));
    }

    public void publish(RequestCompleted record) {
        publish(record, null);
    }

    /**
     * @param trace the client request's trace context; a record of a sampled trace leaves alone, not
     *     in a batch, so that its message's {@code traceparent} is its own request's (one in a batch
     *     could name only one request); unsampled ones batch as always
     */
    public void publish(RequestCompleted record, Context trace) {
        published.increment();
        String json = Json.write(record);
        boolean sampled =
                trace != null && Span.fromContext(trace).getSpanContext().isSampled();
        if (windowMs == 0 || sampled) {
            publisher.publish(
                    record.credentialId() != null ? record.credentialId() : record.accessKeyId(),
                    json,
                    sampled ? trace : null);
            return;
        }
        window.add(json);
    }

    /** Sends what is gathering now (the window's timer, and shutdown). */
    void sendGathered() {
        if (window != null) {
            window.flush();
        }
    }

    void stopping(@Observes ShutdownEvent shutdown) {
        sendGathered();
    }
}
