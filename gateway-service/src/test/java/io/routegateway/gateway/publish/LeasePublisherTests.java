package io.routegateway.gateway.publish;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.routegateway.core.event.JsonBatch;
import io.routegateway.core.event.LeaseBatch;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.limits.Leases;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.core.Vertx;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A replica's leases leave as one message per publish window, keyed by the replica, in the order they
 * were made (an open before its close); with no window each goes alone, keyed by its subject.
 */
class LeasePublisherTests {

    private static final Instant AT = Instant.parse("2026-07-01T12:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(60);

    private final Vertx vertx = Vertx.vertx();
    private final CapturingEmitter emitter = new CapturingEmitter();
    private final Counter published = new SimpleMeterRegistry().counter("published");

    @AfterEach
    void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private LeasePublisher publisher(Duration window) {
        return new LeasePublisher(
                new BoundedPublisher(emitter, "route.admissions", 10_000, dropped -> {}),
                published,
                vertx,
                window,
                "replica-a");
    }

    private static LeaseEvent opened(String keyId, String teamId) {
        return Leases.openRequest(UUID.randomUUID(), "replica-a", keyId, teamId, AT, TTL, 10);
    }

    private static List<LeaseEvent> leases(Message<? extends String> message) {
        return LeaseBatch.decode(message.getPayload()).stream()
                .map(JsonBatch.Entry::value)
                .toList();
    }

    private static String key(Message<? extends String> message) {
        return message.getMetadata(OutgoingKafkaRecordMetadata.class)
                .map(metadata -> (String) metadata.getKey())
                .orElse(null);
    }

    @Test
    void aWindowsLeasesLeaveAsOneMessageKeyedByTheReplicaInTheOrderMade() {
        LeasePublisher leases = publisher(Duration.ofMillis(50));
        LeaseEvent a = opened("k1", "t1");
        LeaseEvent b = opened("k2", null);
        LeaseEvent aClosed = Leases.close(a, AT.plusSeconds(1), 12L, 3L);

        assertThat(leases.publish(a)).isTrue();
        leases.publish(b);
        leases.publish(aClosed);
        assertThat(emitter.sent).as("nothing sent on the request's path").isEmpty();

        await().atMost(Duration.ofSeconds(10)).until(() -> emitter.sent.size() == 1);
        Message<? extends String> message = emitter.sent.get(0);
        assertThat(message.getPayload()).startsWith("[");
        assertThat(leases(message)).containsExactly(a, b, aClosed);
        assertThat(key(message)).isEqualTo("replica-a");
        assertThat(published.count()).isEqualTo(3.0);
    }

    @Test
    void whatIsGatheringIsSentAtShutdown() {
        LeasePublisher leases = publisher(Duration.ofMillis(100));
        LeaseEvent a = opened("k1", null);
        leases.publish(a);

        leases.stopping(null);

        assertThat(emitter.sent).hasSize(1);
        assertThat(leases(emitter.sent.get(0))).containsExactly(a);
        leases.flush();
        assertThat(emitter.sent).hasSize(1);
    }

    @Test
    void withoutAWindowEachLeaseGoesAloneKeyedByItsSubject() {
        LeasePublisher leases = publisher(Duration.ZERO);
        LeaseEvent ofTeam = opened("k1", "t1");
        LeaseEvent ofKey = opened("k2", null);

        leases.publish(ofTeam);
        leases.publish(ofKey);

        assertThat(emitter.sent).hasSize(2);
        assertThat(emitter.sent.get(0).getPayload()).startsWith("{");
        assertThat(leases(emitter.sent.get(0))).containsExactly(ofTeam);
        assertThat(key(emitter.sent.get(0))).isEqualTo("t1");
        assertThat(key(emitter.sent.get(1))).isEqualTo("k2");
    }

    @Test
    void aWindowOutsideZeroTo100MsIsRefusedAtStart() {
        assertThatThrownBy(() -> publisher(Duration.ofMillis(101)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gateway.admission.publish-window");
        assertThatThrownBy(() -> publisher(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
