package io.routegateway.gateway.publish;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Publishes outcome events to the {@code route.outcomes} topic, keyed by credential id so that all
 * events of one credential are applied in order.
 */
@ApplicationScoped
public class OutcomePublisher {

    /** The outgoing channel; {@code mp.messaging.outgoing.outcomes.*} maps it to {@code route.outcomes}. */
    public static final String OUTCOMES_CHANNEL = "outcomes";

    private final MutinyEmitter<String> emitter;

    OutcomePublisher(@Channel(OUTCOMES_CHANNEL) MutinyEmitter<String> emitter) {
        this.emitter = emitter;
    }

    /**
     * Sends one event. The returned {@link Uni} completes when Kafka has acknowledged it and fails if
     * Kafka refused it; nothing is sent until it is subscribed to. It completes on a Kafka producer
     * thread: continue on the caller's Vert.x context before touching Hibernate Reactive.
     */
    public Uni<Void> publish(String credentialId, String eventJson) {
        OutgoingKafkaRecordMetadata<String> key = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(credentialId)
                .build();
        return emitter.sendMessage(Message.of(eventJson, Metadata.of(key)));
    }
}
