package io.routegateway.state.outcome;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.RuntimeSettingEntity;
import io.routegateway.state.repository.TimelineEntity;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** Outcome events fed through the real broker into the real database. */
@QuarkusTest
class OutcomeApplyTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    SecretBox secretBox;

    @Inject
    CredentialEventService service;

    @Inject
    MeterRegistry registry;

    @Test
    void theSameEventDeliveredTwiceHasOneEffect() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-duplicate");
        CredentialEvent.TransientFailureRecorded event =
                failure(id, Instant.parse("2026-03-01T10:00:00Z"), "upstream-sol");
        TestKafka.send(Topics.OUTCOMES, id, json(event));
        await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);
        CredentialEntity afterFirst = credential(id);
        List<CredentialModelEntity> modelsAfterFirst = models(id);
        List<TimelineEntity> timelineAfterFirst = timeline(id);
        assertThat(afterFirst.transientFailureCount).isEqualTo(1);
        assertThat(modelsAfterFirst)
                .singleElement()
                .satisfies(row -> assertThat(row.transientFailureCount).isEqualTo(1));
        double duplicatesBefore = duplicates();

        TestKafka.send(Topics.OUTCOMES, id, json(event));

        await().atMost(PATIENCE).until(() -> duplicates() == duplicatesBefore + 1);
        CredentialEntity afterSecond = credential(id);
        assertThat(afterSecond.stateVersion).isEqualTo(afterFirst.stateVersion);
        assertThat(afterSecond.transientFailureCount).isEqualTo(1);
        assertThat(afterSecond.updatedAt).isEqualTo(afterFirst.updatedAt);
        assertThat(models(id))
                .extracting(row -> row.modelKey, row -> row.transientFailureCount, row -> row.cooldownUntil)
                .containsExactly(tuple("upstream-sol", 1, Instant.parse("2026-03-01T10:00:10Z")));
        assertThat(timeline(id))
                .extracting(line -> line.id)
                .isEqualTo(timelineAfterFirst.stream().map(line -> line.id).toList());
        assertThat(processed(event.eventId())).isEqualTo(1);
    }

    @Test
    void twoModelFailuresRacingEscalateExactlyOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 5; round++) {
                String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-race");
                Instant at = Instant.parse("2026-03-01T11:00:00Z").plusSeconds(round);
                CredentialEvent sol = failure(id, at, "upstream-sol");
                CredentialEvent glm = failure(id, at, "upstream-glm");
                CountDownLatch start = new CountDownLatch(1);
                Future<ApplyResult> first = pool.submit(() -> {
                    start.await();
                    return OutcomeFixtures.await(() -> service.apply(sol));
                });
                Future<ApplyResult> second = pool.submit(() -> {
                    start.await();
                    return OutcomeFixtures.await(() -> service.apply(glm));
                });
                start.countDown();
                assertThat(first.get().kind()).isEqualTo(ApplyResult.Kind.CHANGED);
                assertThat(second.get().kind()).isEqualTo(ApplyResult.Kind.CHANGED);

                assertEscalatedOnce(id, at);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twoModelFailuresSentTogetherThroughKafkaEscalateExactlyOnce() {
        for (int round = 0; round < 3; round++) {
            String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-race-kafka");
            Instant at = Instant.parse("2026-03-01T12:00:00Z").plusSeconds(round);
            CredentialEvent sol = failure(id, at, "upstream-sol");
            CredentialEvent glm = failure(id, at, "upstream-glm");
            try (KafkaProducer<String, String> producer = TestKafka.producer()) {
                producer.send(new ProducerRecord<>(Topics.OUTCOMES, id, json(sol)));
                producer.send(new ProducerRecord<>(Topics.OUTCOMES, id, json(glm)));
            }
            await().atMost(PATIENCE).until(() -> processed(sol.eventId()) + processed(glm.eventId()) == 2);
            assertEscalatedOnce(id, at);
        }
    }

    @Test
    void failuresExceedingTheBlacklistThresholdFromRuntimeSettingsFlipTheAccountToError() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-blacklist");
        Instant at = Instant.parse("2026-03-01T13:00:00Z");
        setBlacklistThreshold("2");
        try {
            OutcomeFixtures.await(() -> service.apply(accountFailure(id, at)));
            OutcomeFixtures.await(() -> service.apply(accountFailure(id, at.plusSeconds(20))));
            assertThat(credential(id).status).isEqualTo("ok");
            OutcomeFixtures.await(() -> service.apply(accountFailure(id, at.plusSeconds(40))));
            CredentialEntity account = credential(id);
            assertThat(account.transientFailureCount).isEqualTo(3);
            assertThat(account.status).isEqualTo("error");
            assertThat(account.lastFailureKind)
                    .as("stored as the blacklist's marker, which recovery leaves to a person")
                    .isEqualTo("blacklisted");
            assertThat(account.lastFailureMessage)
                    .contains("3 consecutive failures exceeded the blacklist threshold of 2");
        } finally {
            setBlacklistThreshold("0");
        }
    }

    @Test
    void aSecondFailureUpdatesTheStoredModelRowAndASuccessRemovesIt() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-row-update");
        Instant at = Instant.parse("2026-03-01T13:00:00Z");
        OutcomeFixtures.await(() -> service.apply(failure(id, at, "upstream-glm")));
        OutcomeFixtures.await(() -> service.apply(failure(id, at, "upstream-sol")));

        // the changed row is written in place, the other one left as it is
        OutcomeFixtures.await(() -> service.apply(failure(id, at.plusSeconds(20), "upstream-sol")));
        assertThat(models(id))
                .extracting(row -> row.modelKey, row -> row.transientFailureCount, row -> row.cooldownUntil)
                .containsExactly(
                        tuple("upstream-glm", 1, at.plusSeconds(10)), tuple("upstream-sol", 2, at.plusSeconds(30)));

        OutcomeFixtures.await(() -> service.apply(success(id, at.plusSeconds(40), "upstream-sol")));
        assertThat(models(id)).extracting(row -> row.modelKey).containsExactly("upstream-glm");
    }

    @Test
    void theCooldownWindowIsTheAccountsOwnConfiguredSeconds() {
        String config = PRIMARY_CONFIG.replace("\"cooldown_seconds\":10", "\"cooldown_seconds\":37");
        String id = OutcomeFixtures.createCredential(secretBox, config, "sk-test-own-window");
        Instant at = Instant.parse("2026-03-01T14:00:00Z");

        OutcomeFixtures.await(() -> service.apply(failure(id, at, "upstream-sol")));
        assertThat(models(id))
                .extracting(row -> row.modelKey, row -> row.cooldownUntil)
                .as("config_json.failure_policy.cooldown_seconds, not the default 10")
                .containsExactly(tuple("upstream-sol", at.plusSeconds(37)));

        OutcomeFixtures.await(() -> service.apply(accountFailure(id, at.plusSeconds(1))));
        CredentialEntity account = credential(id);
        assertThat(account.cooldownUntil).isEqualTo(at.plusSeconds(38));
        assertThat(account.nextRetryAt).isEqualTo(at.plusSeconds(38));
    }

    @Test
    void aUsageLimitWithAResetCoolsTheAccountUntilThatResetWhateverItsOwnWindow() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-usage-limit");
        Instant at = Instant.parse("2026-03-01T15:00:00Z");
        Instant reset = Instant.parse("2026-03-01T19:30:00Z");
        CredentialEvent.QuotaExhaustionRecorded event = new CredentialEvent.QuotaExhaustionRecorded(
                UUID.randomUUID(),
                id,
                at,
                "upstream-sol",
                429,
                "Codex usage limit reached: 5-hour window resets at " + reset,
                "{\"error\":{\"type\":\"usage_limit_reached\",\"resets_at\":" + reset.getEpochSecond() + "}}",
                reset,
                "5h");

        TestKafka.send(Topics.OUTCOMES, id, json(event));
        await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);

        CredentialEntity account = credential(id);
        assertThat(account.status).as("cooled, not flipped to error").isEqualTo("ok");
        assertThat(account.cooldownUntil)
                .as("the upstream's reset, not the 10 s window")
                .isEqualTo(reset);
        assertThat(account.nextRetryAt).isEqualTo(reset);
        assertThat(account.lastFailureKind).isEqualTo("semantic_response_failed");
        assertThat(account.lastFailureMessage).isEqualTo("Codex usage limit reached: 5-hour window resets at " + reset);
        assertThat(models(id)).as("quota is an account property").isEmpty();
        assertThat(timeline(id).stream().filter(line -> line.modelKey == null))
                .extracting(line -> line.toCondition, line -> line.until)
                .containsExactly(tuple("cooling", reset));
    }

    private static CredentialEvent accountFailure(String id, Instant at) {
        return new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(), id, at, "upstream-sol", "transport", null, "connect timed out", null);
    }

    private static void setBlacklistThreshold(String value) {
        OutcomeFixtures.inTransaction(() -> RuntimeSettingEntity.<RuntimeSettingEntity>findById("blacklist_threshold")
                .invoke(setting -> setting.value = value));
    }

    private static void assertEscalatedOnce(String id, Instant at) {
        Instant until = at.plusSeconds(10);
        CredentialEntity account = credential(id);
        assertThat(account.cooldownUntil).isEqualTo(until);
        assertThat(account.nextRetryAt).isEqualTo(until);
        assertThat(account.transientFailureCount).isEqualTo(2);
        assertThat(models(id))
                .extracting(row -> row.modelKey, row -> row.cooldownUntil, row -> row.transientFailureCount)
                .containsExactly(tuple("upstream-glm", until, 1), tuple("upstream-sol", until, 1));
        List<TimelineEntity> accountLines =
                timeline(id).stream().filter(line -> line.modelKey == null).toList();
        assertThat(accountLines)
                .extracting(line -> line.fromCondition, line -> line.toCondition)
                .containsExactly(tuple("ok", "failing"), tuple("failing", "cooling"));
    }

    private double duplicates() {
        return registry.counter(StateMetrics.EVENTS_DUPLICATE).count();
    }
}
