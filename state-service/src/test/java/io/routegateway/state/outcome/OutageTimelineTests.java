package io.routegateway.state.outcome;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.models;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static io.routegateway.state.support.OutcomeFixtures.success;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The spec's "full timeline of one outage": a primary mapping gpt-5.6-sol and glm-5.3, the upstream
 * returning 429 only for gpt-5.6-sol, fed as events through Kafka with explicit occurred_at times.
 * A manual pause of a third model is there from the start and must be all that is left at the end.
 */
@QuarkusTest
class OutageTimelineTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Instant T0 = Instant.parse("2026-04-01T08:00:00Z");

    @Inject
    SecretBox secretBox;

    @Test
    void theRowsFollowTheSpecAtEveryStep() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-outage");
        deliver(new CredentialEvent.ModelPaused(UUID.randomUUID(), id, T0.minusSeconds(60), "legacy-model"));

        // T+0: 429 on gpt-5.6-sol, retries exhausted -> one model-scoped failure
        deliver(failure(id, T0, "upstream-sol"));
        CredentialEntity account = credential(id);
        assertThat(account.transientFailureCount).isEqualTo(1);
        assertThat(account.cooldownUntil).isNull();
        assertThat(account.nextRetryAt).isNull();
        assertThat(account.lastFailureKind).isEqualTo("upstream_status");
        assertThat(account.status).isEqualTo("ok");
        assertThat(models(id))
                .extracting(
                        row -> row.modelKey,
                        row -> row.status,
                        row -> row.cooldownUntil,
                        row -> row.transientFailureCount)
                .containsExactly(
                        tuple("legacy-model", "paused", null, 0), tuple("upstream-sol", "ok", T0.plusSeconds(10), 1));

        // T+2: glm-5.3 succeeds -> account traces cleared, the sol row untouched
        deliver(success(id, T0.plusSeconds(2), "upstream-glm"));
        account = credential(id);
        assertThat(account.transientFailureCount).isZero();
        assertThat(account.lastFailureKind).isNull();
        assertThat(account.lastFailureMessage).isNull();
        assertThat(account.lastFailureResponseJson).isNull();
        assertThat(account.cooldownUntil).isNull();
        assertThat(models(id))
                .extracting(row -> row.modelKey, row -> row.cooldownUntil, row -> row.transientFailureCount)
                .containsExactly(tuple("legacy-model", null, 0), tuple("upstream-sol", T0.plusSeconds(10), 1));

        // T+10: the cooldown expired, 429 again -> failure #2, the row cools until T+20, no escalation
        deliver(failure(id, T0.plusSeconds(10), "upstream-sol"));
        account = credential(id);
        assertThat(account.transientFailureCount).isEqualTo(1);
        assertThat(account.cooldownUntil).isNull();
        assertThat(account.nextRetryAt).isNull();
        assertThat(models(id))
                .extracting(row -> row.modelKey, row -> row.cooldownUntil, row -> row.transientFailureCount)
                .containsExactly(tuple("legacy-model", null, 0), tuple("upstream-sol", T0.plusSeconds(20), 2));

        // T+20: gpt-5.6-sol succeeds -> its row is deleted, the account is clean
        deliver(success(id, T0.plusSeconds(20), "upstream-sol"));
        account = credential(id);
        assertThat(account.transientFailureCount).isZero();
        assertThat(account.cooldownUntil).isNull();
        assertThat(account.lastFailureKind).isNull();
        assertThat(account.status).isEqualTo("ok");
        assertThat(models(id))
                .extracting(row -> row.modelKey, row -> row.status)
                .containsExactly(tuple("legacy-model", "paused"));
    }

    private static void deliver(CredentialEvent event) {
        TestKafka.send(Topics.OUTCOMES, event.credentialId(), json(event));
        await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);
    }
}
