package io.routegateway.gateway.publish;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.core.Vertx;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Usage records leave in batches: by the record limit, by the window's timer, at shutdown; or alone with no window. */
class UsagePublisherTests {

    private static final Instant AT = Instant.parse("2026-07-01T12:00:00Z");

    private final Vertx vertx = Vertx.vertx();
    private final CapturingEmitter emitter = new CapturingEmitter();
    private final AtomicInteger dropped = new AtomicInteger();
    private final Counter published = new SimpleMeterRegistry().counter("published");

    @AfterEach
    void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private UsagePublisher publisher(Duration window, int maxRecords, int maxPending) {
        return new UsagePublisher(
                new BoundedPublisher(emitter, "route.usage", maxPending, dropped::addAndGet),
                published,
                vertx,
                window,
                maxRecords);
    }

    private static RequestCompleted record(String accessKey) {
        return RequestCompleted.refused(UUID.randomUUID(), AT, Protocol.OPENAI_CHAT, accessKey, 401, "bad_key");
    }

    private static List<RequestCompleted> records(Message<? extends String> message) {
        return UsageBatch.decode(message.getPayload()).stream()
                .map(UsageBatch.Entry::record)
                .toList();
    }

    @Test
    void aFullBatchLeavesAtOnceAsOneUnkeyedMessage() {
        UsagePublisher usage = publisher(Duration.ofSeconds(1), 3, 100);
        RequestCompleted a = record("ak-a");
        RequestCompleted b = record("ak-b");
        RequestCompleted c = record("ak-c");

        usage.publish(a);
        usage.publish(b);
        assertThat(emitter.sent).isEmpty();
        usage.publish(c);

        assertThat(emitter.sent).hasSize(1);
        Message<? extends String> batch = emitter.sent.get(0);
        assertThat(batch.getPayload()).startsWith("[");
        assertThat(records(batch)).containsExactly(a, b, c);
        assertThat(batch.getMetadata(OutgoingKafkaRecordMetadata.class)).isEmpty();
        assertThat(published.count()).isEqualTo(3.0);
    }

    @Test
    void aPartialBatchLeavesWhenItsWindowEnds() {
        UsagePublisher usage = publisher(Duration.ofMillis(20), 500, 100);
        RequestCompleted a = record("ak-a");
        RequestCompleted b = record("ak-b");

        usage.publish(a);
        usage.publish(b);

        await().atMost(Duration.ofSeconds(10)).until(() -> emitter.sent.size() == 1);
        assertThat(records(emitter.sent.get(0))).containsExactly(a, b);

        // the next record opens a new window of its own
        RequestCompleted c = record("ak-c");
        usage.publish(c);
        await().atMost(Duration.ofSeconds(10)).until(() -> emitter.sent.size() == 2);
        assertThat(records(emitter.sent.get(1))).containsExactly(c);
    }

    @Test
    void whatIsGatheringIsSentAtShutdown() {
        UsagePublisher usage = publisher(Duration.ofSeconds(1), 500, 100);
        RequestCompleted a = record("ak-a");
        usage.publish(a);

        usage.stopping(null);

        assertThat(emitter.sent).hasSize(1);
        assertThat(records(emitter.sent.get(0))).containsExactly(a);
        usage.sendGathered();
        assertThat(emitter.sent).hasSize(1);
    }

    @Test
    void withoutAWindowEachRecordGoesAloneKeyedByItsCredentialOrAccessKey() {
        UsagePublisher usage = publisher(Duration.ZERO, 500, 100);
        RequestCompleted refused = record("ak-a");
        RequestCompleted routed = new RequestCompleted(
                UUID.randomUUID(),
                AT,
                Protocol.OPENAI_CHAT,
                "ak-b",
                "grp",
                "cred-1",
                "m",
                "m",
                1,
                200,
                null,
                5,
                null,
                null,
                null,
                false,
                false,
                true,
                false);

        usage.publish(refused);
        usage.publish(routed);

        assertThat(emitter.sent).hasSize(2);
        assertThat(emitter.sent.get(0).getPayload()).isEqualTo(Json.write(refused));
        assertThat(emitter.sent)
                .extracting(message -> message.getMetadata(OutgoingKafkaRecordMetadata.class)
                        .orElseThrow()
                        .getKey())
                .containsExactly("ak-a", "cred-1");
    }

    @Test
    void aBatchBeyondThePendingBoundIsDroppedAsItsRecordsAndNeverThrows() {
        UsagePublisher usage = publisher(Duration.ofSeconds(1), 2, 3);
        usage.publish(record("1"));
        usage.publish(record("2"));
        usage.publish(record("3"));
        usage.publish(record("4"));

        assertThat(emitter.sent).hasSize(1);
        assertThat(dropped).hasValue(2);

        emitter.failing = true;
        usage.publish(record("5"));
        usage.sendGathered();
        assertThat(dropped).hasValue(3);
    }

    @Test
    void aWindowOutsideZeroToOneSecondIsRefused() {
        assertThatThrownBy(() -> publisher(Duration.ofMillis(1001), 500, 100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("usage-batch-window");
        assertThatThrownBy(() -> publisher(Duration.ofMillis(-1), 500, 100))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
