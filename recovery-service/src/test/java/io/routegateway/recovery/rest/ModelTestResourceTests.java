package io.routegateway.recovery.rest;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.routegateway.common.upstream.UpstreamClient;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.FailureScope;
import io.routegateway.recovery.support.RecoveryIntegrationTest;
import io.routegateway.recovery.support.RecoveryTestProfile;
import io.routegateway.recovery.support.StubResolver;
import io.routegateway.recovery.support.TestCredentials;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.recovery.support.TestCredentials.credential;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/** {@code POST /recovery/v1/credentials/{id}/test} against a simulated upstream. */
@QuarkusTest
@TestProfile(RecoveryTestProfile.class)
class ModelTestResourceTests extends RecoveryIntegrationTest {

    static final String TWO_MODELS = "{\"model_mappings\":[{\"from\":\"alpha\",\"to\":\"up-alpha\"},"
            + "{\"from\":\"beta\",\"to\":\"up-beta\"}]}";

    String account(TestCredentials.Spec spec) {
        return credentials.insert(spec.baseUrl(upstream.baseUrl()).config(TWO_MODELS));
    }

    ValidatableResponse test(String id, String body) {
        return given().contentType(ContentType.JSON)
                .header("Authorization", InternalTokenTests.AUTHORIZATION)
                .body(body)
                .post("/recovery/v1/credentials/{id}/test", id)
                .then();
    }

    /** The outcome events once the usage record, published after them, has arrived. */
    List<CredentialEvent> outcomes(String id) {
        await().atMost(Duration.ofSeconds(20)).until(() -> !topics.usage(id).isEmpty());
        return topics.outcomes(id);
    }

    @Test
    void aPassingTestAnswersAndPublishesAnExplicitTestSuccessWithoutLeakingTheSecret() {
        upstream.replySuccess();
        String id = account(credential().status("error"));

        String answer = test(id, "{\"model\":\"beta\"}")
                .statusCode(200)
                .body("success", is(true))
                .body("status", is(200))
                .body("latency_ms", greaterThanOrEqualTo(0))
                .body("kind", nullValue())
                .body("message", nullValue())
                .body("model", is("beta"))
                .extract()
                .asString();

        assertThat(upstream.received()).singleElement().satisfies(request -> {
            assertThat(request.authorization()).isEqualTo("Bearer " + TestCredentials.secretOf(id));
            assertThat(request.body()).contains("\"model\":\"up-beta\"");
        });
        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.ModelTestSucceeded.class, success -> {
                    assertThat(success.modelKey()).isEqualTo("up-beta");
                    assertThat(success.explicitTest()).isTrue();
                    assertThat(success.automatic())
                            .as("a person's test: its pass lifts a pause or a blacklist")
                            .isFalse();
                });
        assertThat(topics.usage(id)).singleElement().satisfies(usage -> {
            assertThat(usage.probe()).isTrue();
            assertThat(usage.success()).isTrue();
            assertThat(usage.requestedModel()).isEqualTo("beta");
        });
        assertThat(answer).doesNotContain(TestCredentials.secretOf(id));
        assertThat(topics.payloads(id)).noneMatch(payload -> payload.contains(TestCredentials.secretOf(id)));
    }

    @Test
    void aCodexOfficialAccountIsTestedUnderItsChatGptAccountAsGatewayRequestsAre() {
        upstream.reply(
                200,
                "{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"output\":[{\"type\":"
                        + "\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"pong\"}]}],"
                        + "\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}");
        String official = credentials.insert(credential()
                .platform("codex")
                .kind("official")
                .oauthAccount("acct-codex-1")
                .baseUrl(upstream.baseUrl()));
        String apiKey = credentials.insert(credential().platform("codex").baseUrl(upstream.baseUrl()));

        test(official, "{\"model\":\"gpt-5\"}").statusCode(200).body("status", is(200));
        test(apiKey, "{\"model\":\"gpt-5\"}").statusCode(200).body("status", is(200));

        assertThat(upstream.received()).hasSize(2);
        assertThat(upstream.received().get(0)).satisfies(request -> {
            assertThat(request.path()).isEqualTo("/v1/responses");
            assertThat(request.authorization()).isEqualTo("Bearer " + TestCredentials.secretOf(official));
            assertThat(request.chatgptAccountId()).isEqualTo("acct-codex-1");
        });
        assertThat(upstream.received().get(1).chatgptAccountId())
                .as("an api key names no account")
                .isNull();
    }

    @Test
    void withoutAModelTheFirstMappingIsTestedAndPausedAccountsCanBeTested() {
        upstream.replySuccess();
        String id = account(credential().status("paused"));

        test(id, "{}").statusCode(200).body("success", is(true)).body("model", is("alpha"));

        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.ModelTestSucceeded.class,
                        success -> assertThat(success.modelKey()).isEqualTo("up-alpha"));
    }

    @Test
    void a429IsAModelScopedModelTestStatusFailure() {
        upstream.reply(429, "{\"error\":{\"message\":\"too many requests\"}}");
        String id = account(credential());

        test(id, "{\"model\":\"alpha\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("status", is(429))
                .body("kind", is("model_test_status"))
                .body("message", is("upstream returned 429"))
                .body("model", is("alpha"));

        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("model_test_status");
                    assertThat(failure.status()).isEqualTo(429);
                    assertThat(failure.modelKey()).isEqualTo("up-alpha");
                    assertThat(FailureScope.chargesAccount(
                                    FailureKind.MODEL_TEST_STATUS, failure.status(), failure.modelKey()))
                            .as("model scope")
                            .isFalse();
                });
        assertThat(topics.usage(id)).singleElement().satisfies(usage -> {
            assertThat(usage.probe()).isTrue();
            assertThat(usage.success()).isFalse();
        });
    }

    static final Instant NOW = Instant.parse("2026-08-01T09:00:00Z");
    static final Instant RESET = NOW.plus(Duration.ofHours(3));

    /** Codex's answer when an official account's window ran out. */
    static final String CODEX_USAGE_LIMIT = "{\"error\":{\"type\":\"usage_limit_reached\","
            + "\"message\":\"The usage limit has been reached\",\"resets_at\":" + RESET.getEpochSecond() + "}}";

    @Test
    void anOfficialCodexAccountsUsageLimit429CoolsItUntilTheResetAsARequestsDoes() {
        clock.set(NOW);
        upstream.reply(429, CODEX_USAGE_LIMIT);
        String id = credentials.insert(credential()
                .platform("codex")
                .kind("official")
                .oauthAccount("acct-codex-1")
                .baseUrl(upstream.baseUrl()));

        test(id, "{\"model\":\"gpt-5\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("status", is(429))
                .body("kind", is("semantic_response_failed"))
                .body("message", is("Codex usage limit reached: usage window resets at " + RESET));

        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.QuotaExhaustionRecorded.class, quota -> {
                    assertThat(quota.status()).isEqualTo(429);
                    assertThat(quota.resetsAt()).isEqualTo(RESET);
                    assertThat(quota.responseBody()).isEqualTo(CODEX_USAGE_LIMIT);
                });
    }

    @Test
    void anOfficialClaudeAccountsRejectedUnifiedLimitCoolsItUntilTheHeadersReset() {
        clock.set(NOW);
        upstream.reply(
                429,
                "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"rate limited\"}}",
                Map.of(
                        "anthropic-ratelimit-unified-status", "rejected",
                        "anthropic-ratelimit-unified-reset", String.valueOf(RESET.getEpochSecond()),
                        "anthropic-ratelimit-unified-representative-claim", "five_hour"));
        String id = credentials.insert(credential()
                .platform("claude")
                .kind("official")
                .oauthAccount("acct-claude-1")
                .baseUrl(upstream.baseUrl()));

        test(id, "{\"model\":\"claude-sonnet-4-5\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("kind", is("semantic_response_failed"));

        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.QuotaExhaustionRecorded.class, quota -> {
                    assertThat(quota.resetsAt()).isEqualTo(RESET);
                    assertThat(quota.limitWindow()).isEqualTo("5h");
                });
    }

    @Test
    void anApiKeysUsageLimit429StaysAnOrdinaryStatusFailure() {
        clock.set(NOW);
        upstream.reply(429, CODEX_USAGE_LIMIT);
        String id = credentials.insert(credential().platform("codex").baseUrl(upstream.baseUrl()));

        test(id, "{\"model\":\"gpt-5\"}").statusCode(200).body("kind", is("model_test_status"));

        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.TransientFailureRecorded.class,
                        failure -> assertThat(failure.status()).isEqualTo(429));
    }

    @Test
    void anUpstreamQuotingTheKeyHasItMaskedInTheAnswerAndTheEvent() {
        String id = account(credential());
        String secret = TestCredentials.secretOf(id);
        upstream.reply(200, "{\"error\":{\"message\":\"key " + secret + " is over its limit\"}}");

        String answer = test(id, "{\"model\":\"alpha\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("message", is("key [redacted] is over its limit"))
                .extract()
                .asString();

        assertThat(answer).doesNotContain(secret);
        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.message()).isEqualTo("key [redacted] is over its limit");
                    assertThat(failure.responseBody()).contains("[redacted]");
                });
        assertThat(topics.payloads(id)).noneMatch(payload -> payload.contains(secret));
    }

    @Test
    void a401IsAnAccountScopedModelTestStatusFailure() {
        upstream.reply(401, "{\"error\":{\"message\":\"invalid api key\"}}");
        String id = account(credential());

        test(id, "{\"model\":\"alpha\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("status", is(401))
                .body("kind", is("model_test_status"));

        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.status()).isEqualTo(401);
                    assertThat(FailureScope.chargesAccount(
                                    FailureKind.MODEL_TEST_STATUS, failure.status(), failure.modelKey()))
                            .as("account scope")
                            .isTrue();
                });
    }

    @Test
    void aRefusedConnectionIsAnAccountScopedModelTestFailure() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String id = credentials.insert(
                credential().baseUrl("http://127.0.0.1:" + closedPort).config(TWO_MODELS));

        test(id, "{\"model\":\"alpha\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("status", nullValue())
                .body("kind", is("model_test"));

        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("model_test");
                    assertThat(failure.status()).isNull();
                    assertThat(failure.message()).contains("connection");
                    assertThat(FailureScope.chargesAccount(FailureKind.MODEL_TEST, null, failure.modelKey()))
                            .isTrue();
                });
        assertThat(topics.usage(id))
                .singleElement()
                .satisfies(usage -> assertThat(usage.status()).isZero());
    }

    @Inject
    MeterRegistry registry;

    @Test
    void aHostResolvingToTheMetadataAddressIsRefusedAtConnectTimeAndTheSameNameResolvingToAnAllowedOneIsTested() {
        upstream.replySuccess();
        String host = "probe-" + System.nanoTime() + ".rebind.example.com";
        String baseUrl = upstream.baseUrl().replace("127.0.0.1", host);
        String id = credentials.insert(credential().baseUrl(baseUrl).config(TWO_MODELS));
        StubResolver.map(host, "169.254.169.254");
        var counter = registry.find("recovery.upstream.addresses.refused")
                .tag("reason", "link_local")
                .counter();
        assertThat(counter).isNotNull();
        double before = counter.count();

        test(id, "{\"model\":\"alpha\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("status", nullValue())
                .body("kind", is("model_test"))
                .body("message", is(UpstreamClient.ADDRESS_REFUSED + " (link_local)"));

        assertThat(upstream.received()).as("nothing was sent").isEmpty();
        assertThat(counter.count()).isEqualTo(before + 1);
        assertThat(outcomes(id))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("model_test");
                    assertThat(failure.message()).isEqualTo(UpstreamClient.ADDRESS_REFUSED + " (link_local)");
                });

        StubResolver.map(host, "127.0.0.1");
        test(id, "{\"model\":\"alpha\"}").statusCode(200).body("success", is(true));
        assertThat(upstream.received())
                .singleElement()
                .satisfies(request ->
                        assertThat(request.authorization()).isEqualTo("Bearer " + TestCredentials.secretOf(id)));
    }

    @Test
    void aClientSideStatusFailsTheTestButChargesNothing() {
        upstream.reply(400, "{\"error\":{\"message\":\"bad parameter\"}}");
        String id = account(credential());

        test(id, "{\"model\":\"alpha\"}")
                .statusCode(200)
                .body("success", is(false))
                .body("status", is(400))
                .body("kind", nullValue());

        assertThat(outcomes(id)).isEmpty();
        assertThat(topics.usage(id))
                .singleElement()
                .satisfies(usage -> assertThat(usage.probe()).isTrue());
    }

    @Test
    void unknownOrArchivedCredentialIs404() {
        String archived = account(credential().archived());

        test("no-such-credential", "{}")
                .statusCode(404)
                .body("error.code", is("credential_not_found"))
                .body("error.type", is("not_found"));
        test(archived, "{}").statusCode(404).body("error.code", is("credential_not_found"));
        assertThat(upstream.received()).isEmpty();
    }

    @Test
    void aModelTheCredentialDoesNotMapIs400AndNothingIsSentOrPublished() {
        String id = account(credential());

        test(id, "{\"model\":\"gamma\"}")
                .statusCode(400)
                .body("error.code", is("validation.test_model_not_mapped"))
                .body("error.type", is("invalid_request"));

        assertThat(upstream.received()).isEmpty();
        assertThat(topics.payloads(id)).isEmpty();
    }
}
