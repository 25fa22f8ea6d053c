package io.routegateway.state.publish;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Sends one keyed message to one of the compacted topics through the {@value #CHANNEL} channel; a
 * null payload is a tombstone. The Uni completes when the broker acknowledged the write (on a Kafka
 * client thread, not on the caller's Vert.x context).
 */
@ApplicationScoped
public class StateTopicSender {

    /** The outgoing channel; its default topic is {@code route.credential-state}. */
    public static final String CHANNEL = "state-snapshots";

    private final MutinyEmitter<Record<String, String>> emitter;

    /** The relay bounds what is in flight (one batch), so the emitter may buffer a whole batch. */
    public StateTopicSender(
            @Channel(CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
                    MutinyEmitter<Record<String, String>> emitter) {
        this.emitter = emitter;
    }

    public Uni<Void> send(String topic, String key, String payload) {
        Message<Record<String, String>> message = Message.of(Record.of(key, payload))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                        .withTopic(topic)
                        .build());
        return emitter.sendMessage(message);
    }
}
