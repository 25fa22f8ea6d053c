package io.routegateway.state.outcome;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.event.Topics;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.models;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static io.routegateway.state.support.OutcomeFixtures.success;
import static io.routegateway.state.support.OutcomeFixtures.timeline;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Gateways publish every success; state-service acknowledges one that changes nothing without
 * writing, applies one that clears something, and never lets an older success clear a newer
 * failure. Fed through the real broker into the real database.
 */
@QuarkusTest
class SuccessFastPathTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Instant T0 = Instant.parse("2026-10-01T10:00:00Z");

    @Inject
    SecretBox secretBox;

    @Inject
    CredentialEventService service;

    @Inject
    MeterRegistry registry;

    @Test
    void aSuccessThatChangesNothingIsAcknowledgedWithoutAWrite() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-noop");
        CredentialEntity before = credential(id);
        double noOpsBefore = noOps();
        CredentialEvent.AttemptSucceeded success = success(id, T0, "upstream-sol");
        CredentialEvent.TransientFailureRecorded later = failure(id, T0.plusSeconds(1), "upstream-sol");

        TestKafka.send(Topics.OUTCOMES, id, json(success));
        TestKafka.send(Topics.OUTCOMES, id, json(later));
        // one partition per credential: once the failure is applied, the success was handled
        await().atMost(PATIENCE).until(() -> processed(later.eventId()) == 1);

        assertThat(processed(success.eventId()))
                .as("no idempotency row for a no-op")
                .isZero();
        assertThat(noOps()).isGreaterThanOrEqualTo(noOpsBefore + 1);
        CredentialEntity after = credential(id);
        assertThat(after.stateVersion).as("only the failure made a version").isEqualTo(before.stateVersion + 1);
        assertThat(timeline(id))
                .as("every timeline line is the failure's")
                .isNotEmpty()
                .extracting(line -> line.eventId)
                .containsOnly(later.eventId());
    }

    @Test
    void aSuccessAfterAFailureFromAnotherReplicaClearsIt() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-window");
        // recorded by another gateway replica: the one that serves the success never saw it
        CredentialEvent.TransientFailureRecorded elsewhere = failure(id, T0, "upstream-sol");
        TestKafka.send(Topics.OUTCOMES, id, json(elsewhere));
        await().atMost(PATIENCE).until(() -> processed(elsewhere.eventId()) == 1);
        assertThat(credential(id).transientFailureCount).isEqualTo(1);
        assertThat(models(id)).hasSize(1);

        CredentialEvent.AttemptSucceeded success = success(id, T0.plusMillis(50), "upstream-sol");
        RecordMetadata at = TestKafka.send(Topics.OUTCOMES, id, json(success));

        await().atMost(PATIENCE).until(() -> processed(success.eventId()) == 1);
        CredentialEntity cleared = credential(id);
        assertThat(cleared.transientFailureCount).isZero();
        assertThat(cleared.lastFailureKind).isNull();
        assertThat(models(id)).as("the hit model's row is gone").isEmpty();
        assertThat(cleared.outcomePartition).isEqualTo(at.partition());
        assertThat(cleared.outcomeOffset).isEqualTo(at.offset());
    }

    @Test
    void aNoOpSuccessDeliveredAgainAfterALaterFailureLeavesTheFailure() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-replay");
        CredentialEvent.AttemptSucceeded success = success(id, T0, "upstream-sol");
        RecordMetadata successAt = TestKafka.send(Topics.OUTCOMES, id, json(success));
        CredentialEvent.TransientFailureRecorded later = failure(id, T0.plusSeconds(1), "upstream-sol");
        RecordMetadata failureAt = TestKafka.send(Topics.OUTCOMES, id, json(later));
        await().atMost(PATIENCE).until(() -> processed(later.eventId()) == 1);
        assertThat(processed(success.eventId())).isZero();
        long versionAfterFailure = credential(id).stateVersion;
        assertThat(credential(id).outcomeOffset).isEqualTo(failureAt.offset());

        // the consumer re-reads the success from its old offset (a rebalance, a restart)
        ApplyResult replay = OutcomeFixtures.await(
                () -> service.apply(success, new OutcomePosition(successAt.partition(), successAt.offset())));

        assertThat(replay.kind()).isEqualTo(ApplyResult.Kind.STALE);
        CredentialEntity after = credential(id);
        assertThat(after.transientFailureCount)
                .as("the newer failure survives the older success")
                .isEqualTo(1);
        assertThat(after.stateVersion).isEqualTo(versionAfterFailure);
        assertThat(models(id))
                .singleElement()
                .satisfies(row -> assertThat(row.transientFailureCount).isEqualTo(1));
    }

    @Test
    void aSuccessAfterTheLastChangeStillClearsIt() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-after");
        CredentialEvent.TransientFailureRecorded failure = failure(id, T0, null);
        RecordMetadata failureAt = TestKafka.send(Topics.OUTCOMES, id, json(failure));
        await().atMost(PATIENCE).until(() -> processed(failure.eventId()) == 1);

        CredentialEvent.AttemptSucceeded success = success(id, T0.plusSeconds(1), null);
        ApplyResult result = OutcomeFixtures.await(
                () -> service.apply(success, new OutcomePosition(failureAt.partition(), failureAt.offset() + 1)));

        assertThat(result.kind()).isEqualTo(ApplyResult.Kind.CHANGED);
        assertThat(credential(id).transientFailureCount).isZero();
    }

    private double noOps() {
        return registry.counter(StateMetrics.EVENTS_APPLIED, "result", "noop").count();
    }
}
