package io.routegateway.recovery.publish;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.json.Json;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Publishes what recovery did: outcome and recovery events to {@code route.outcomes} (state-service
 * applies them), probe usage records to {@code route.usage}. Both are keyed by credential id, so one
 * credential's events stay in order with the gateways' events for it.
 */
@ApplicationScoped
public class EventPublisher {

    /** {@code mp.messaging.outgoing.outcomes.*} maps it to {@code route.outcomes}. */
    public static final String OUTCOMES_CHANNEL = "outcomes";
    /** {@code mp.messaging.outgoing.usage.*} maps it to {@code route.usage}. */
    public static final String USAGE_CHANNEL = "usage";

    private final MutinyEmitter<String> outcomes;
    private final MutinyEmitter<String> usage;

    EventPublisher(
            @Channel(OUTCOMES_CHANNEL) MutinyEmitter<String> outcomes,
            @Channel(USAGE_CHANNEL) MutinyEmitter<String> usage) {
        this.outcomes = outcomes;
        this.usage = usage;
    }

    /** Completes when Kafka acknowledged the event, fails when it refused it. */
    public Uni<Void> outcome(CredentialEvent event) {
        return send(outcomes, event.credentialId(), Json.write(event, CredentialEvent.class));
    }

    /** Completes when Kafka acknowledged the record, fails when it refused it. */
    public Uni<Void> usage(RequestCompleted record) {
        return send(usage, record.credentialId(), Json.write(record, RequestCompleted.class));
    }

    private static Uni<Void> send(MutinyEmitter<String> emitter, String key, String payload) {
        OutgoingKafkaRecordMetadata<String> metadata =
                OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build();
        return emitter.sendMessage(Message.of(payload, Metadata.of(metadata)));
    }
}
