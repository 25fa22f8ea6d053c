package io.routegateway.state.outcome;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.support.SignedRecords;
import io.smallrye.mutiny.Uni;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first hop of propagation is timed from the message's Kafka timestamp (the gateway's send) to
 * the consumer taking it up, whatever the message holds: even one that goes to the dead-letter topic
 * was delivered.
 */
class OutcomeDeliveryTests {

    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final StateMetrics metrics = new StateMetrics(registry);
    private final OutcomeConsumer consumer = new OutcomeConsumer(
            acceptingService(), metrics, Clock.fixed(NOW, ZoneOffset.UTC), SignedRecords.producerSignatures(metrics));

    @Test
    void theTimeFromTheGatewaysSendToTheConsumerIsRecorded() {
        consumer.consume(stamped(NOW.toEpochMilli() - 250, "not json"))
                .subscribe()
                .with(ok -> {}, failed -> {});

        Timer delivery = registry.get(StateMetrics.EVENTS_DELIVERY).timer();
        assertThat(delivery.count()).isEqualTo(1);
        assertThat(delivery.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(250.0);
    }

    @Test
    void aStampAheadOfThisClockCountsAsNoWaitAndAMessageWithoutAStampIsNotTimed() {
        consumer.consume(stamped(NOW.toEpochMilli() + 40, "not json"))
                .subscribe()
                .with(ok -> {}, failed -> {});
        consumer.consume(new ConsumerRecord<>("route.outcomes", 0, 7L, "cred-1", "not json"))
                .subscribe()
                .with(ok -> {}, failed -> {});

        Timer delivery = registry.get(StateMetrics.EVENTS_DELIVERY).timer();
        assertThat(delivery.count()).isEqualTo(1);
        assertThat(delivery.totalTime(TimeUnit.MILLISECONDS)).isZero();
    }

    private static ConsumerRecord<String, String> stamped(long createTime, String value) {
        return new ConsumerRecord<>(
                "route.outcomes",
                0,
                42L,
                createTime,
                TimestampType.CREATE_TIME,
                7,
                value.length(),
                "cred-1",
                value,
                new RecordHeaders(),
                Optional.empty());
    }

    /** Never reached by these messages (they do not parse); present so the consumer can be built. */
    private static CredentialEventService acceptingService() {
        return new CredentialEventService(null, null, null, null, null, null, null, null, null, null) {
            @Override
            public Uni<ApplyResult> apply(CredentialEvent event, OutcomePosition position, Instant sentAt) {
                return Uni.createFrom().nullItem();
            }
        };
    }
}
