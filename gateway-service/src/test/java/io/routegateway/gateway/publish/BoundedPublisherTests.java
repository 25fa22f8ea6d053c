package io.routegateway.gateway.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Publishing is bounded and never throws at the caller: overflow, refusals and failures are counted drops. */
class BoundedPublisherTests {

    private final CapturingEmitter emitter = new CapturingEmitter();
    private final AtomicInteger dropped = new AtomicInteger();
    private final BoundedPublisher publisher = new BoundedPublisher(emitter, "route.test", 2, dropped::incrementAndGet);

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

    /** Records what is sent; acknowledgement is up to the test. */
    private static final class CapturingEmitter implements MutinyEmitter<String> {

        final List<Message<? extends String>> sent = new ArrayList<>();
        boolean failing;

        @Override
        public <M extends Message<? extends String>> Cancellable sendMessageAndForget(M message) {
            if (failing) {
                throw new IllegalStateException("channel cancelled");
            }
            sent.add(message);
            return () -> {};
        }

        @Override
        public Uni<Void> send(String payload) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sendAndAwait(String payload) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Cancellable sendAndForget(String payload) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <M extends Message<? extends String>> void send(M message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <M extends Message<? extends String>> Uni<Void> sendMessage(M message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <M extends Message<? extends String>> void sendMessageAndAwait(M message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void complete() {}

        @Override
        public void error(Exception e) {}

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean hasRequests() {
            return true;
        }
    }
}
