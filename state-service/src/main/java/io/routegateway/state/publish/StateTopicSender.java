package io.routegateway.state.publish;

import java.nio.charset.StandardCharsets;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * Sends one keyed message to one of the compacted topics through the {@value #CHANNEL} channel; a
 * null payload is a tombstone. Every message carries state-service's signature over topic, key and
 * payload ({@link StateSignature} headers), without which readers do not apply it. The Uni completes
 * when the broker acknowledged the write (on a Kafka client thread, not on the caller's Vert.x
 * context).
 */
@ApplicationScoped
public class StateTopicSender {

    /** The outgoing channel; its default topic is {@code route.credential-state}. */
    public static final String CHANNEL = "state-snapshots";

    private final MutinyEmitter<Record<String, String>> emitter;
    private final StateSigner signer;

    /** The relay bounds what is in flight (one batch), so the emitter may buffer a whole batch. */
    public StateTopicSender(
            @Channel(CHANNEL) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
                    MutinyEmitter<Record<String, String>> emitter,
            StateSigner signer) {
        this.emitter = emitter;
        this.signer = signer;
    }

    public Uni<Void> send(String topic, String key, String payload) {
        Message<Record<String, String>> message = Message.of(Record.of(key, payload))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                        .withTopic(topic)
                        .withHeaders(signatureHeaders(topic, key, payload))
                        .build());
        return emitter.sendMessage(message);
    }

    private RecordHeaders signatureHeaders(String topic, String key, String payload) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8));
        headers.add(
                StateSignature.SIGNATURE_HEADER,
                signer.sign(topic, key, payload).getBytes(StandardCharsets.UTF_8));
        return headers;
    }
}
