package io.routegateway.gateway.publish;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/**
 * Fire-and-forget publication that can neither block nor fail a client request: at most {@code
 * maxPending} messages may await a Kafka acknowledgement; beyond that, and for every message Kafka
 * refuses, the message is dropped, counted ({@code gateway_events_dropped_total}) and logged
 * (rate-limited, without the payload). The emitter's own buffer is unbounded because this bound
 * sits in front of it (a bounded emitter buffer fails the channel when it overflows).
 */
final class BoundedPublisher {

    private static final Logger LOG = Logger.getLogger(BoundedPublisher.class);

    private final MutinyEmitter<String> emitter;
    private final String topic;
    private final int maxPending;
    private final Runnable countDrop;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong droppedTotal = new AtomicLong();

    /** @param countDrop counts one dropped message (the metric) */
    BoundedPublisher(MutinyEmitter<String> emitter, String topic, int maxPending, Runnable countDrop) {
        this.emitter = emitter;
        this.topic = topic;
        this.maxPending = maxPending;
        this.countDrop = countDrop;
    }

    void publish(String key, String payload) {
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            dropped(key, "too many messages awaiting Kafka (" + maxPending + ")");
            return;
        }
        OutgoingKafkaRecordMetadata<String> metadata =
                OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build();
        Message<String> message = Message.of(
                payload,
                Metadata.of(metadata),
                () -> {
                    pending.decrementAndGet();
                    return CompletableFuture.completedFuture(null);
                },
                failure -> {
                    pending.decrementAndGet();
                    dropped(key, failure.toString());
                    return CompletableFuture.completedFuture(null);
                });
        try {
            emitter.sendMessageAndForget(message);
        } catch (RuntimeException e) {
            pending.decrementAndGet();
            dropped(key, e.toString());
        }
    }

    int pending() {
        return pending.get();
    }

    private void dropped(String key, String reason) {
        countDrop.run();
        long count = droppedTotal.incrementAndGet();
        if ((count & (count - 1)) == 0 || count % 1000 == 0) {
            LOG.warnf("Dropped a %s message (key %s): %s; %d dropped so far", topic, key, reason, count);
        }
    }
}
