package io.routegateway.gateway.publish;

import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Publishing is bounded and never throws at the caller: overflow, refusals and failures are counted drops. */
class BoundedPublisherTests {

    private final CapturingEmitter emitter = new CapturingEmitter();
    private final AtomicInteger dropped = new AtomicInteger();
    private final BoundedPublisher publisher = new BoundedPublisher(emitter, "route.test", 2, dropped::addAndGet);

    @Test
    void messagesAreKeyedAndCountedUntilAcknowledged() {
        publisher.publish("cred-1", "{}");

        assertThat(emitter.sent).hasSize(1);
        assertThat(emitter.sent
                        .get(0)
                        .getMetadata(OutgoingKafkaRecordMetadata.class)
                        .orElseThrow()
                        .getKey())
                .isEqualTo("cred-1");
        assertThat(publisher.pending()).isEqualTo(1);

        emitter.sent.get(0).ack().toCompletableFuture().join();

        assertThat(publisher.pending()).isZero();
        assertThat(dropped).hasValue(0);
    }

    @Test
    void beyondMaxPendingMessagesAreDroppedAndCounted() {
        publisher.publish("a", "1");
        publisher.publish("b", "2");
        publisher.publish("c", "3");

        assertThat(emitter.sent).hasSize(2);
        assertThat(dropped).hasValue(1);

        emitter.sent.get(0).ack().toCompletableFuture().join();
        publisher.publish("d", "4");
        assertThat(emitter.sent).hasSize(3);
        assertThat(dropped).hasValue(1);
    }

    @Test
    void aBatchCountsAsItsRecordsAndGoesUnkeyedWithoutAKey() {
        BoundedPublisher bounded = new BoundedPublisher(emitter, "route.test", 5, dropped::addAndGet);

        assertThat(bounded.publish(null, "[1,2,3]", 3)).isTrue();
        assertThat(bounded.pending()).isEqualTo(3);
        assertThat(emitter.sent.get(0).getMetadata(OutgoingKafkaRecordMetadata.class))
                .isEmpty();

        // 3 + 3 > 5: the second batch is dropped whole and counted as its records
        assertThat(bounded.publish(null, "[4,5,6]", 3)).isFalse();
        assertThat(dropped).hasValue(3);
        assertThat(bounded.pending()).isEqualTo(3);

        emitter.sent
                .get(0)
                .nack(new IllegalStateException("broker down"))
                .toCompletableFuture()
                .join();
        assertThat(dropped).hasValue(6);
        assertThat(bounded.pending()).isZero();

        // a batch larger than the bound on its own still goes when nothing else waits
        assertThat(bounded.publish(null, "[...]", 7)).isTrue();
        assertThat(bounded.pending()).isEqualTo(7);
    }

    @Test
    void aRefusedMessageIsADropAndFreesItsSlot() {
        publisher.publish("a", "1");

        emitter.sent
                .get(0)
                .nack(new IllegalStateException("broker down"))
                .toCompletableFuture()
                .join();

        assertThat(dropped).hasValue(1);
        assertThat(publisher.pending()).isZero();
    }

    @Test
    void anEmitterThatThrowsNeverReachesTheCaller() {
        emitter.failing = true;

        publisher.publish("a", "1");

        assertThat(dropped).hasValue(1);
        assertThat(publisher.pending()).isZero();
    }
}
