package io.routegateway.recovery.publish;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Publishes what recovery did: outcome and recovery events to {@code route.outcomes} (state-service
 * applies them), probe usage records to {@code route.usage}. Both are keyed by credential id, so one
 * credential's events stay in order with the gateways' events for it. Every message carries
 * recovery-service's producer signature over its topic, key and payload ({@link StateSignature},
 * {@code route.producer-signing.*}), without which state-service applies nothing.
 */
@ApplicationScoped
public class EventPublisher {

    /** {@code mp.messaging.outgoing.outcomes.*} maps it to {@code route.outcomes}. */
    public static final String OUTCOMES_CHANNEL = "outcomes";
    /** {@code mp.messaging.outgoing.usage.*} maps it to {@code route.usage}. */
    public static final String USAGE_CHANNEL = "usage";

    private final MutinyEmitter<String> outcomes;
    private final MutinyEmitter<String> usage;
    private final StateSigner signer;
    private final String outcomesTopic;
    private final String usageTopic;

    EventPublisher(
            @Channel(OUTCOMES_CHANNEL) MutinyEmitter<String> outcomes,
            @Channel(USAGE_CHANNEL) MutinyEmitter<String> usage,
            StateSigner signer,
            @ConfigProperty(name = "mp.messaging.outgoing.outcomes.topic", defaultValue = Topics.OUTCOMES)
                    String outcomesTopic,
            @ConfigProperty(name = "mp.messaging.outgoing.usage.topic", defaultValue = Topics.USAGE)
                    String usageTopic) {
        if (signer.domain() != StateSignature.Domain.PRODUCER) {
            throw new IllegalArgumentException("recovery-service signs with a producer key, not " + signer.domain());
        }
        this.outcomes = outcomes;
        this.usage = usage;
        this.signer = signer;
        this.outcomesTopic = outcomesTopic;
        this.usageTopic = usageTopic;
    }

    /** Completes when Kafka acknowledged the event, fails when it refused it. */
    public Uni<Void> outcome(CredentialEvent event) {
        return send(outcomes, outcomesTopic, event.credentialId(), Json.write(event, CredentialEvent.class));
    }

    /** Completes when Kafka acknowledged the record, fails when it refused it. */
    public Uni<Void> usage(RequestCompleted record) {
        return send(usage, usageTopic, record.credentialId(), Json.write(record, RequestCompleted.class));
    }

    private Uni<Void> send(MutinyEmitter<String> emitter, String topic, String key, String payload) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8));
        headers.add(
                StateSignature.SIGNATURE_HEADER,
                signer.sign(topic, key, payload).getBytes(StandardCharsets.UTF_8));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(key)
                .withHeaders(headers)
                .build();
        return emitter.sendMessage(Message.of(payload, Metadata.of(metadata)));
    }
}
