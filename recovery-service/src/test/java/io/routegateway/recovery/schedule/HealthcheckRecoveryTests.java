package io.routegateway.recovery.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.recovery.support.MockUpstream;
import io.routegateway.recovery.support.RecoveryIntegrationTest;
import io.routegateway.recovery.support.RecoveryTestProfile;
import io.routegateway.recovery.support.TestCredentials;
import org.junit.jupiter.api.Test;

import static io.routegateway.recovery.support.TestCredentials.credential;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Healthcheck mode end to end: a real probe against a simulated upstream, outcomes on Kafka. */
@QuarkusTest
@TestProfile(RecoveryTestProfile.class)
class HealthcheckRecoveryTests extends RecoveryIntegrationTest {

    static final Instant NOW = Instant.parse("2026-09-02T08:00:00Z");
    static final String FOUR_MODELS_EVERY_30_MINUTES = "{\"model_mappings\":["
            + "{\"from\":\"alpha\",\"to\":\"up-alpha\"},{\"from\":\"beta\",\"to\":\"up-beta\"},"
            + "{\"from\":\"gamma\",\"to\":\"up-gamma\"},{\"from\":\"delta\",\"to\":\"up-delta\"}],"
            + "\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":30}}";

    List<MockUpstream.Received> probesOf(String credentialId) {
        return upstream.received().stream()
                .filter(request -> ("Bearer " + TestCredentials.secretOf(credentialId)).equals(request.authorization()))
                .toList();
    }

    /** Outcomes once the probe's usage record (published last) has arrived. */
    List<CredentialEvent> outcomesAfterProbe(String credentialId, int probes) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> topics.usage(credentialId).size() >= probes);
        return topics.outcomes(credentialId);
    }

    String accountWithParkedModels() {
        String id = credentials.insert(credential().baseUrl(upstream.baseUrl()).config(FOUR_MODELS_EVERY_30_MINUTES));
        credentials.modelRow(id, "up-beta", "paused", null, NOW.minusSeconds(3 * 3600));
        credentials.modelRow(id, "up-alpha", "ok", NOW.plusSeconds(3600), NOW.minusSeconds(2 * 3600));
        credentials.modelRow(id, "up-gamma", "ok", NOW.minusSeconds(60), NOW.minusSeconds(3600));
        credentials.modelRow(id, "up-delta", "error", null, NOW.minusSeconds(1800));
        return id;
    }

    @Test
    void probesTheOldestEligibleModelAndAPassIsAnExplicitTestSuccess() {
        upstream.replySuccess();
        String id = accountWithParkedModels();

        TickReport report = tickAt(NOW);

        assertThat(report.probed()).isEqualTo(1);
        assertThat(probesOf(id)).singleElement().satisfies(request -> {
            assertThat(request.path()).isEqualTo("/v1/chat/completions");
            assertThat(request.body()).contains("\"model\":\"up-gamma\"");
        });
        assertThat(outcomesAfterProbe(id, 1))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.ModelTestSucceeded.class, success -> {
                    assertThat(success.credentialId()).isEqualTo(id);
                    assertThat(success.modelKey()).isEqualTo("up-gamma");
                    assertThat(success.explicitTest()).isTrue();
                    assertThat(success.occurredAt()).isEqualTo(NOW);
                });
        assertThat(topics.usage(id)).singleElement().satisfies(usage -> {
            assertThat(usage.probe()).isTrue();
            assertThat(usage.success()).isTrue();
            assertThat(usage.requestedModel()).isEqualTo("gamma");
            assertThat(usage.modelKey()).isEqualTo("up-gamma");
            assertThat(usage.status()).isEqualTo(200);
        });
    }

    @Test
    void aFailingProbePublishesOnlyItsFailureAndWaitsForTheNextInterval() {
        upstream.reply(429, "{\"error\":{\"message\":\"rate limited\",\"type\":\"rate_limit\"}}");
        String id = accountWithParkedModels();

        tickAt(NOW);
        List<CredentialEvent> afterFirst = outcomesAfterProbe(id, 1);

        assertThat(afterFirst)
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("model_test_status");
                    assertThat(failure.status()).isEqualTo(429);
                    assertThat(failure.modelKey()).isEqualTo("up-gamma");
                    assertThat(failure.responseBody()).contains("rate limited");
                });
        assertThat(topics.usage(id)).singleElement().satisfies(usage -> {
            assertThat(usage.probe()).isTrue();
            assertThat(usage.success()).isFalse();
            assertThat(usage.status()).isEqualTo(429);
        });

        assertThat(tickAt(NOW.plusSeconds(29 * 60)).probed())
                .as("within the interval")
                .isZero();
        assertThat(probesOf(id)).hasSize(1);

        assertThat(tickAt(NOW.plusSeconds(30 * 60)).probed())
                .as("the interval has passed")
                .isEqualTo(1);
        assertThat(outcomesAfterProbe(id, 2))
                .hasSize(2)
                .allMatch(event -> event instanceof CredentialEvent.TransientFailureRecorded);
    }

    @Test
    void withoutAnEligibleRowTheFirstNonFallbackMappingIsProbed() {
        upstream.replySuccess();
        String id = credentials.insert(credential()
                .status("error")
                .baseUrl(upstream.baseUrl())
                .config(
                        "{\"model_mappings\":[{\"from\":\"*\",\"to\":\"up-any\"},{\"from\":\"first\",\"to\":\"up-first\"},"
                                + "{\"from\":\"second\",\"to\":\"up-second\"}],"
                                + "\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":5}}"));

        tickAt(NOW);

        assertThat(probesOf(id))
                .singleElement()
                .satisfies(request -> assertThat(request.body()).contains("\"model\":\"up-first\""));
        assertThat(outcomesAfterProbe(id, 1))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.ModelTestSucceeded.class, success -> {
                    assertThat(success.explicitTest()).isTrue();
                    assertThat(success.modelKey()).isEqualTo("up-first");
                });
    }

    @Test
    void accountsThatDoNotNeedRecoveryOrAreRevokedAreNotProbed() {
        upstream.replySuccess();
        String healthy =
                credentials.insert(credential().baseUrl(upstream.baseUrl()).config(FOUR_MODELS_EVERY_30_MINUTES));
        String revoked = credentials.insert(
                credential().status("revoked").baseUrl(upstream.baseUrl()).config(FOUR_MODELS_EVERY_30_MINUTES));

        TickReport report = tickAt(NOW);

        assertThat(report.probed()).isZero();
        assertThat(List.of(healthy, revoked))
                .allSatisfy(id -> assertThat(probesOf(id)).isEmpty());
    }

    @Test
    void pausedAndBlacklistedAccountsAreNeverProbed() {
        // issue 34: a probe due at once lifted a person's pause within one tick
        upstream.replySuccess();
        String paused = credentials.insert(
                credential().status("paused").baseUrl(upstream.baseUrl()).config(FOUR_MODELS_EVERY_30_MINUTES));
        String blacklisted = credentials.insert(
                credential().blacklisted().baseUrl(upstream.baseUrl()).config(FOUR_MODELS_EVERY_30_MINUTES));

        TickReport report = tickAt(NOW);

        assertThat(report.probed()).isZero();
        assertThat(List.of(paused, blacklisted))
                .allSatisfy(id -> assertThat(probesOf(id)).isEmpty());
    }

    @Test
    void anOpenaiRelayWithoutMappingsIsProbedWithThePlatformsProbeModel() {
        // issue 34: its default probe model used to be empty, so it stayed in error, silently
        upstream.replySuccess();
        String id = credentials.insert(credential()
                .status("error")
                .baseUrl(upstream.baseUrl())
                .config("{\"recovery\":{\"mode\":\"healthcheck\",\"interval_minutes\":5}}"));

        assertThat(tickAt(NOW).probed()).isEqualTo(1);

        assertThat(probesOf(id))
                .singleElement()
                .satisfies(request -> assertThat(request.body()).contains("\"model\":\"gpt-5-mini\""));
        assertThat(outcomesAfterProbe(id, 1))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.ModelTestSucceeded.class, success -> {
                    assertThat(success.explicitTest()).isTrue();
                    assertThat(success.automatic())
                            .as("a probe's pass is automation: it would leave a pause or a blacklist")
                            .isTrue();
                });
    }
}
