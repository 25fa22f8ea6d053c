package io.routegateway.state.outcome;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.json.Json;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.support.SignedRecords;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failure while the service shuts down (the database pool closing under an event in flight) must
 * not dead-letter a good event: the message stays unacknowledged and is delivered again after the
 * restart. Before the shutdown, the same failure dead-letters it.
 */
class OutcomeShutdownTests {

    /** What the reactive pool answers once Quarkus has closed it. */
    private static final IllegalStateException POOL_CLOSED = new IllegalStateException("Pool closed");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final StateMetrics metrics = new StateMetrics(registry);
    private final OutcomeConsumer consumer = new OutcomeConsumer(
            failingService(), metrics, Clock.systemUTC(), SignedRecords.producerSignatures(metrics));

    @Test
    void duringShutdownAFailedEventIsLeftForRedeliveryNotDeadLettered() {
        consumer.stopping(null);

        UniAssertSubscriber<Void> result =
                consumer.consume(record()).subscribe().withSubscriber(UniAssertSubscriber.create());

        result.assertNotTerminated();
        assertThat(deadLettered()).isZero();
    }

    @Test
    void beforeShutdownTheSameFailureDeadLettersTheMessage() {
        UniAssertSubscriber<Void> result =
                consumer.consume(record()).subscribe().withSubscriber(UniAssertSubscriber.create());

        result.awaitFailure(Duration.ofSeconds(5)).assertFailedWith(PoisonMessageException.class);
        assertThat(deadLettered()).isEqualTo(1);
    }

    private double deadLettered() {
        return registry.find(StateMetrics.EVENTS_DEAD_LETTERED).counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }

    private static ConsumerRecord<String, String> record() {
        CredentialEvent event = new CredentialEvent.AttemptSucceeded(
                UUID.randomUUID(), "cred-1", Instant.parse("2026-11-30T10:00:00Z"), "m");
        try {
            return SignedRecords.producerSigned(
                    "route.outcomes", 0, 42L, "cred-1", Json.MAPPER.writeValueAsString(event));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The apply path as the closing pool leaves it: every call fails. */
    private static CredentialEventService failingService() {
        return new CredentialEventService(null, null, null, null, null, null, null, null, null, null) {
            @Override
            public Uni<io.routegateway.state.outcome.ApplyResult> apply(
                    CredentialEvent event,
                    io.routegateway.core.event.OutcomePosition position,
                    java.time.Instant sentAt) {
                return Uni.createFrom().failure(POOL_CLOSED);
            }
        };
    }
}
