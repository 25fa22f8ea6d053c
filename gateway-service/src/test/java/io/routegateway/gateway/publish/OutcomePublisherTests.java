package io.routegateway.gateway.publish;

import java.time.Instant;
import java.util.List;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import io.routegateway.testsupport.Management;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Outcome events and usage records reach their real topics, keyed, with every field the spec names. */
@QuarkusTest
class OutcomePublisherTests extends GatewayTestBase {

    @Inject
    OutcomePublisher publisher;

    @Test
    void anEventReachesTheOutcomesTopicKeyedByCredential() {
        String credentialId = Pool.uid("c");
        CredentialEvent event = new CredentialEvent.AttemptSucceeded(
                java.util.UUID.randomUUID(), credentialId, Instant.parse("2026-09-02T12:00:00Z"), "m");

        double publishedBefore = publishedOutcomes();
        publisher.publish(event, false);

        assertThat(outcomes(credentialId, list -> !list.isEmpty())).containsExactly(event);
        await().atMost(KAFKA_WAIT)
                .untilAsserted(
                        () -> assertThat(given().get(Management.url("/metrics")).asString())
                                .as("acknowledged messages leave the pending count")
                                .contains("gateway_events_pending{topic=\"route.outcomes\"} 0.0"));
        assertThat(publishedOutcomes() - publishedBefore).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void aForwardedRequestPublishesItsOutcomeAndItsUsageRecord() {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential)
                        // one failure on record, so this success has something to clear
                        .account(new AccountState(
                                AccountStatus.OK, 1, null, null, "upstream_status", "boom", null, 0, null))
                        .maps("alias", "m")
                        .groups(group)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        assertThat(post("/v1/chat/completions", keyId, chat("alias")).statusCode())
                .isEqualTo(200);

        assertThat(outcomes(credential, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.AttemptSucceeded.class,
                        success -> assertThat(success.modelKey()).isEqualTo("m"));
        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.protocol()).isEqualTo(Protocol.OPENAI_CHAT);
        assertThat(record.accessKeyId()).isEqualTo(keyId);
        assertThat(record.groupId()).isEqualTo(group);
        assertThat(record.credentialId()).isEqualTo(credential);
        assertThat(record.requestedModel()).isEqualTo("alias");
        assertThat(record.modelKey()).isEqualTo("m");
        assertThat(record.attempts()).isEqualTo(1);
        assertThat(record.status()).isEqualTo(200);
        assertThat(record.reasonCode()).isNull();
        assertThat(record.success()).isTrue();
        assertThat(record.stream()).isFalse();
        assertThat(record.clientDisconnected()).isFalse();
        assertThat(record.probe()).isFalse();
        assertThat(record.inputTokens()).isEqualTo(11L);
        assertThat(record.outputTokens()).isEqualTo(7L);
        assertThat(record.ttftMs()).isNotNull();
        assertThat(record.latencyMs()).isGreaterThanOrEqualTo(0);
        String metrics = given().get(Management.url("/metrics")).asString();
        assertThat(metrics)
                .contains("gateway_requests_total{protocol=\"openai_chat\",reason=\"none\",status=\"200\"}")
                .contains("gateway_upstream_attempts_total{outcome=\"success\",protocol=\"openai_chat\"}")
                .contains("gateway_upstream_latency_seconds_count")
                .contains("gateway_ttft_seconds_count")
                .contains("gateway_view_lag_records");
    }

    @Test
    void successesThatChangeNothingAreCoalescedPerCredentialAndModelAndAFailureReleasesThemFirst() {
        String credentialId = Pool.uid("c");
        Instant at = Instant.parse("2026-12-02T04:00:00Z");
        CredentialEvent first = success(credentialId, "m", at);
        publisher.publish(first, false);
        CredentialEvent latestM = null;
        for (int i = 1; i <= 20; i++) {
            latestM = success(credentialId, "m", at.plusMillis(i));
            publisher.publish(latestM, false);
        }
        CredentialEvent otherModel = success(credentialId, "n", at.plusMillis(30));
        publisher.publish(otherModel, false);
        CredentialEvent failure = failure(credentialId, at.plusMillis(40));
        publisher.publish(failure, true);

        // the first success of m, the first of n, then m's latest (held) ahead of the failure
        assertThat(outcomes(credentialId, list -> list.size() >= 4))
                .containsExactly(first, otherModel, latestM, failure);
        assertThat(publisher.held(credentialId)).isZero();
    }

    @Test
    void aHeldSuccessIsPublishedWhenItsWindowEnds() {
        String credentialId = Pool.uid("c");
        Instant at = Instant.parse("2026-12-02T04:00:00Z");
        CredentialEvent first = success(credentialId, "m", at);
        CredentialEvent held = success(credentialId, "m", at.plusMillis(5));
        publisher.publish(first, false);
        publisher.publish(held, false);

        assertThat(outcomes(credentialId, list -> list.size() >= 2)).containsExactly(first, held);
        String metrics = given().get(Management.url("/metrics")).asString();
        assertThat(metrics)
                .contains("gateway_outcome_successes_coalesced_total")
                .contains("gateway_outcome_successes_held");
    }

    @Test
    void aSuccessThatChangedTheViewIsNeverHeld() {
        String credentialId = Pool.uid("c");
        Instant at = Instant.parse("2026-12-02T04:00:00Z");
        CredentialEvent first = success(credentialId, "m", at);
        CredentialEvent clearing = success(credentialId, "m", at.plusMillis(5));
        publisher.publish(first, false);
        publisher.publish(clearing, true);
        assertThat(publisher.held(credentialId)).isZero();
        assertThat(outcomes(credentialId, list -> list.size() >= 2)).containsExactly(first, clearing);
    }

    @Test
    void aHeldSuccessIsDroppedWhenItsCredentialsNewerStateArrives() {
        String credentialId = Pool.uid("c");
        String group = Pool.uid("g");
        install(
                List.of(Pool.credential(credentialId)
                        .serves("m")
                        .groups(group)
                        .version(1)
                        .build(box)),
                List.of(Pool.group(group, false)),
                null);
        Instant at = Instant.parse("2026-12-02T04:00:00Z");
        CredentialEvent first = success(credentialId, "m", at);
        publisher.publish(first, false);
        publisher.publish(success(credentialId, "m", at.plusMillis(5)), false);
        assertThat(publisher.held(credentialId)).isEqualTo(1);

        // state-service's newer snapshot of the credential reaches the view (it may carry a failure
        // recorded elsewhere after the held success): the held success must not clear it later
        install(
                List.of(Pool.credential(credentialId)
                        .serves("m")
                        .groups(group)
                        .version(2)
                        .build(box)),
                List.of(),
                null);
        assertThat(publisher.held(credentialId)).isZero();
        CredentialEvent failure = failure(credentialId, at.plusMillis(40));
        publisher.publish(failure, true);

        assertThat(outcomes(credentialId, list -> list.size() >= 2)).containsExactly(first, failure);
    }

    private static CredentialEvent failure(String credentialId, Instant at) {
        return new CredentialEvent.TransientFailureRecorded(
                java.util.UUID.randomUUID(),
                credentialId,
                at,
                "m",
                "upstream_status",
                429,
                "upstream returned 429",
                null);
    }

    private static CredentialEvent success(String credentialId, String model, Instant at) {
        return new CredentialEvent.AttemptSucceeded(java.util.UUID.randomUUID(), credentialId, at, model);
    }

    private static double publishedOutcomes() {
        return given().get(Management.url("/metrics"))
                .asString()
                .lines()
                .filter(line -> line.startsWith("gateway_events_published_total{topic=\"route.outcomes\"}"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
