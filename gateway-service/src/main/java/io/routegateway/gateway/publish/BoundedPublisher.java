package io.routegateway.gateway.publish;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/**
 * Fire-and-forget publication that can neither block nor fail a client request: at most {@code
 * maxPending} records may await a Kafka acknowledgement (a message carries one record, or a batch
 * of them); beyond that, and for every message Kafka refuses, its records are dropped, counted
 * ({@code gateway_events_dropped_total}) and logged (rate-limited, without the payload). The emitter's own buffer is unbounded because this bound
 * sits in front of it (a bounded emitter buffer fails the channel when it overflows).
 */
final class BoundedPublisher {

    private static final Logger LOG = Logger.getLogger(BoundedPublisher.class);

    private final MutinyEmitter<String> emitter;
    private final String topic;
    private final int maxPending;
    private final IntConsumer countDrops;
    /** Added to every record (null: none). Immutable, so one instance serves every record. */
    private final Header header;
    /** Signs every message (null: unsigned, for topics state-service does not verify). */
    private final RecordSigning signing;

    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong droppedTotal = new AtomicLong();
    /** {@code System.currentTimeMillis()} of the last drop, 0 before any. */
    private final AtomicLong lastDropMillis = new AtomicLong();

    /** @param countDrops counts dropped records (the metric) */
    BoundedPublisher(MutinyEmitter<String> emitter, String topic, int maxPending, IntConsumer countDrops) {
        this(emitter, topic, maxPending, countDrops, null);
    }

    /** @param header added to every record (null: none) */
    BoundedPublisher(
            MutinyEmitter<String> emitter, String topic, int maxPending, IntConsumer countDrops, Header header) {
        this(emitter, topic, maxPending, countDrops, header, null);
    }

    /**
     * @param header added to every record (null: none)
     * @param signing signs every message over its topic, key and payload (null: unsigned)
     */
    BoundedPublisher(
            MutinyEmitter<String> emitter,
            String topic,
            int maxPending,
            IntConsumer countDrops,
            Header header,
            RecordSigning signing) {
        this.header = header;
        this.signing = signing;
        this.emitter = emitter;
        this.topic = topic;
        this.maxPending = maxPending;
        this.countDrops = countDrops;
    }

    /** One record under a key. */
    void publish(String key, String payload) {
        publish(key, payload, 1, null);
    }

    /** One record under a key, sent in {@code trace} (its traceparent on the record's headers). */
    void publish(String key, String payload, Context trace) {
        publish(key, payload, 1, trace);
    }

    boolean publish(String key, String payload, int records) {
        return publish(key, payload, records, null);
    }

    /**
     * A message of {@code records} records; a null key leaves the partition to the producer.
     * Returns whether it was handed to Kafka (false: dropped and counted).
     *
     * @param trace the trace context the record belongs to: SmallRye's Kafka tracing opens the
     *     producer span under it and writes its W3C {@code traceparent} into the record's headers;
     *     null for none (a new root, never the context that happens to be current on this thread)
     */
    boolean publish(String key, String payload, int records, Context trace) {
        int waiting = pending.addAndGet(records);
        if (waiting > maxPending && waiting > records) {
            // a batch larger than the bound on its own still goes when nothing else waits
            pending.addAndGet(-records);
            dropped(key, records, "too many records awaiting Kafka (" + maxPending + ")");
            return false;
        }
        Metadata metadata = Metadata.empty();
        if (key != null || header != null || signing != null) {
            OutgoingKafkaRecordMetadata.OutgoingKafkaRecordMetadataBuilder<String> kafka =
                    OutgoingKafkaRecordMetadata.<String>builder().withKey(key);
            // a new list per record: the producer marks a record's headers read-only once sent
            RecordHeaders headers = new RecordHeaders();
            if (header != null) {
                headers.add(header);
            }
            if (signing != null) {
                for (Header signed : signing.headers(key, payload)) {
                    headers.add(signed);
                }
            }
            if (header != null || signing != null) {
                kafka.withHeaders(headers);
            }
            metadata = Metadata.of(kafka.build());
        }
        metadata = metadata.with(TracingMetadata.withCurrent(trace == null ? Context.root() : trace));
        Message<String> message = Message.of(
                payload,
                metadata,
                () -> {
                    pending.addAndGet(-records);
                    return CompletableFuture.completedFuture(null);
                },
                failure -> {
                    pending.addAndGet(-records);
                    dropped(key, records, failure.toString());
                    return CompletableFuture.completedFuture(null);
                });
        try {
            emitter.sendMessageAndForget(message);
            return true;
        } catch (RuntimeException e) {
            pending.addAndGet(-records);
            dropped(key, records, e.toString());
            return false;
        }
    }

    int pending() {
        return pending.get();
    }

    /** When a record was last dropped ({@code System.currentTimeMillis()}), 0 when none was. */
    long lastDropMillis() {
        return lastDropMillis.get();
    }

    private void dropped(String key, int records, String reason) {
        lastDropMillis.set(System.currentTimeMillis());
        countDrops.accept(records);
        long before = droppedTotal.getAndAdd(records);
        long count = before + records;
        // rate-limited: the first drop, each crossing of a power of two, and every thousandth
        if (Long.highestOneBit(before) != Long.highestOneBit(count) || before / 1000 != count / 1000) {
            LOG.warnf(
                    "Dropped a %s message of %d record(s) (key %s): %s; %d records dropped so far",
                    topic, records, key, reason, count);
        }
    }
}
