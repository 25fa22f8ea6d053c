package io.routegateway.e2e.fault;

import java.time.Duration;
import java.util.List;

import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.Load;
import io.routegateway.e2e.support.Metrics;
import io.routegateway.e2e.support.OutcomeTap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The broker goes away for 30 s (the process is halted, then started again on the same port and data
 * directory): the gateway keeps serving from its view, and every outcome it recorded in the meantime
 * either reaches Kafka once the broker is back or is counted as dropped by its metric.
 */
class KafkaOutageIT extends EndToEndTest {

    private static final Duration OUTAGE = Duration.ofSeconds(30);

    @Test
    void theGatewayServesThroughAKafkaOutageAndItsOutcomesArriveAfterwards() {
        MixedTraffic traffic = MixedTraffic.create(system);
        EventLedger ledger = EventLedger.start(system);
        // successes an earlier test left held are published before the count starts
        awaitNoHeldSuccesses();
        long recordedBefore = recordedAttempts();
        long droppedBefore = droppedOutcomes();
        long requestsDuringOutage;
        try (Load load = Load.start(system.gateway(), traffic.accessKey(), MixedTraffic.MODELS, 2)) {
            load.awaitMore(40);

            system.broker().stop();
            long stoppedAt = System.nanoTime();
            long atStop = load.requests();
            await("the outage lasts " + OUTAGE.toSeconds() + " s")
                    .atMost(OUTAGE.plusSeconds(5))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> System.nanoTime() - stoppedAt >= OUTAGE.toNanos());
            requestsDuringOutage = load.requests() - atStop;
            long restartBegan = System.nanoTime();
            system.broker().restart();
            long restartMillis = (System.nanoTime() - restartBegan) / 1_000_000;
            load.awaitMore(40);
            load.stop();

            assertThat(load.errors())
                    .as("client-visible errors: %s", load.errorSamples())
                    .isZero();
            assertThat(requestsDuringOutage).as("served while Kafka was away").isPositive();

            // successes coalesced in the gateway are published when their window ends: count them too
            awaitNoHeldSuccesses();
            long recorded = recordedAttempts() - recordedBefore;
            long dropped = droppedOutcomes() - droppedBefore;
            // delivery resumes once the producers reconnect: wait until every recorded outcome arrived
            // or was counted as dropped
            await("outcomes delivered after the outage")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> ledger.produced(traffic.credentials()).stream()
                                            .map(OutcomeTap.Outcome::eventId)
                                            .distinct()
                                            .count()
                                    + (droppedOutcomes() - droppedBefore)
                            >= recorded);
            dropped = droppedOutcomes() - droppedBefore;
            List<OutcomeTap.Outcome> messages = ledger.produced(traffic.credentials());
            // at least once: a send retried across the outage may land twice; state-service dedups it
            long delivered = messages.stream()
                    .map(OutcomeTap.Outcome::eventId)
                    .distinct()
                    .count();
            EventLedger.Counts counts = ledger.settle(traffic.credentials(), false, Duration.ofMinutes(3));
            EventLedger.summary(
                    "KafkaOutageIT",
                    "requests=" + load.requests(),
                    "client_errors=" + load.errors(),
                    "requests_during_outage=" + requestsDuringOutage,
                    "broker_restart_ms=" + restartMillis,
                    "outcomes_recorded_by_gateway=" + recorded,
                    "delivered=" + delivered,
                    "delivered_twice=" + (messages.size() - delivered),
                    counts);

            assertThat(delivered + dropped)
                    .as("every recorded outcome delivered or counted as dropped")
                    .isEqualTo(recorded);
            assertThat(counts.missing()).as("delivered but never applied").isEmpty();
        } finally {
            system.demo().reset(traffic.flaky());
        }
    }

    /**
     * Outcome events the gateway handed to Kafka: one per counted failure, and the successes (the
     * first of each credential and model per window, any that cleared something in its view, and
     * the latest held one when its window ends).
     */
    private static long recordedAttempts() {
        return Metrics.of(system.gatewayProcess()).count("gateway_events_published_total", "topic=\"route.outcomes\"");
    }

    private static void awaitNoHeldSuccesses() {
        await("held successes published")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Metrics.of(system.gatewayProcess()).count("gateway_outcome_successes_held") == 0);
    }

    private static long droppedOutcomes() {
        return Metrics.of(system.gatewayProcess()).count("gateway_events_dropped_total", "topic=\"route.outcomes\"");
    }
}
