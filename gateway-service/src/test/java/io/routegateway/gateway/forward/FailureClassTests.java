package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.MockUpstream.Behaviour;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One test per failure class: credential {@code a} (priority 0) misbehaves, {@code b} (priority 1)
 * answers; the client must see {@code b}'s answer and the right outcome must be recorded for
 * {@code a}.
 */
@QuarkusTest
class FailureClassTests extends GatewayTestBase {

    private String a;
    private String b;
    private String keyId;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
    }

    private void pool(CredentialBuilder failing) {
        String group = Pool.uid("g");
        upstream.on(b, ok());
        install(
                List.of(
                        failing.serves("m").groups(group).priority(0).build(box),
                        Pool.credential(b).serves("m").groups(group).priority(1).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private HttpResponse<String> call() {
        return post("/v1/chat/completions", keyId, chat("m"));
    }

    private CredentialEvent.TransientFailureRecorded onlyTransientFailureOf(String credentialId) {
        List<CredentialEvent> events = outcomes(credentialId, list -> !list.isEmpty());
        assertThat(events).hasSize(1);
        assertThat(events.get(0)).isInstanceOf(CredentialEvent.TransientFailureRecorded.class);
        return (CredentialEvent.TransientFailureRecorded) events.get(0);
    }

    @ParameterizedTest(name = "status {0}: retried on the same credential, then fail over")
    @ValueSource(ints = {408, 429, 500, 502, 503})
    void retryableStatusRetriesThenFailsOver(int status) {
        upstream.on(a, json(status, "{\"error\":{\"message\":\"try later\"}}"));
        pool(Pool.credential(a).policy(2, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("hello");
        assertThat(upstream.count(a)).as("1 attempt + retry_count 2").isEqualTo(3);
        assertThat(upstream.count(b)).isEqualTo(1);
        CredentialEvent.TransientFailureRecorded failure = onlyTransientFailureOf(a);
        assertThat(failure.kind()).isEqualTo("upstream_status");
        assertThat(failure.status()).isEqualTo(status);
        assertThat(failure.modelKey()).isEqualTo("m");
        assertThat(failure.message()).isEqualTo("upstream returned " + status);
        assertThat(failure.responseBody()).contains("try later");
        assertThat(views.pool().credential(b).orElseThrow().models())
                .as("the fallback's success left it healthy")
                .isEmpty();
    }

    @Test
    void everyCountedSuccessIsPublished() {
        String group = Pool.uid("g");
        Behaviour failing = json(500, "{\"error\":{\"message\":\"boom\"}}");
        upstream.on(a, MockUpstream.sequence(failing, ok(), ok(), failing, ok()));
        install(
                List.of(Pool.credential(a)
                        .serves("m")
                        .groups(group)
                        .policy(0, 10, false, 10)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        List<Integer> statuses = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statuses.add(call().statusCode());
        }

        assertThat(statuses.get(1)).isEqualTo(200);
        assertThat(statuses.get(2)).isEqualTo(200);
        // the third call's success changes nothing in this replica's view and is published anyway
        // (only state-service knows whether another replica's failure waits to be cleared): held
        // within its window, it goes ahead of the next failure of its credential
        assertThat(outcomes(a, list -> list.size() >= 4))
                .extracting(event -> event.getClass().getSimpleName())
                .containsExactly(
                        "TransientFailureRecorded", "AttemptSucceeded", "AttemptSucceeded", "TransientFailureRecorded");
    }

    @Test
    void aSuccessOnAnAccountThisReplicaSeesHealthyIsPublished() {
        // another replica recorded a failure of a moments ago; its snapshot has not reached this
        // view, which still holds a healthy a: the success must still reach state-service
        upstream.on(a, ok());
        String group = Pool.uid("g");
        install(
                List.of(Pool.credential(a).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        assertThat(views.pool().credential(a).orElseThrow().account().transientFailureCount())
                .isZero();

        assertThat(call().statusCode()).isEqualTo(200);

        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.AttemptSucceeded.class,
                        success -> assertThat(success.modelKey()).isEqualTo("m"));
    }

    @ParameterizedTest(name = "status {0}: never retried on the same credential")
    @ValueSource(ints = {401, 403})
    void authFailureSwitchesAtOnceAndChargesTheAccount(int status) {
        upstream.on(a, json(status, "{\"error\":{\"message\":\"denied\"}}"));
        pool(Pool.credential(a).policy(2, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.count(a)).isEqualTo(1);
        assertThat(onlyTransientFailureOf(a).status()).isEqualTo(status);
        CredentialSnapshot local = views.pool().credential(a).orElseThrow();
        assertThat(local.account().cooldownUntil())
                .as("401/403 park the whole account")
                .isNotNull();
    }

    @Test
    void refusedConnectionIsATransportFailure() throws Exception {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        pool(Pool.credential(a).baseUrl("http://127.0.0.1:" + closed).policy(1, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        CredentialEvent.TransientFailureRecorded failure = onlyTransientFailureOf(a);
        assertThat(failure.kind()).isEqualTo("transport");
        assertThat(failure.status()).isNull();
        assertThat(failure.message()).startsWith("connection failed");
    }

    @Test
    void stalledUpstreamFiresTheReadGapAndFailsOver() {
        upstream.on(a, MockUpstream.stall());
        pool(Pool.credential(a).policy(0, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.count(a)).isEqualTo(1);
        CredentialEvent.TransientFailureRecorded failure = onlyTransientFailureOf(a);
        assertThat(failure.kind()).isEqualTo("transport");
        assertThat(failure.message()).contains("read timeout").contains("gateway.upstream.read-gap-timeout=2s");
    }

    /**
     * A secret sealed under another encryption key (a key the gateway was not given, e.g. after a
     * rotation) cannot be opened, so no upstream request can be built from the credential: the
     * spec's {@code request_build} failure, account-scoped. Nothing is sent to the upstream.
     */
    private static SecretBox anotherKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return SecretBox.fromBase64Key(Base64.getEncoder().encodeToString(key), new SecureRandom());
    }

    @Test
    void aSecretThatDoesNotOpenIsARequestBuildFailureOfTheAccountAndFailsOver() {
        String group = Pool.uid("g");
        upstream.on(b, ok());
        install(
                List.of(
                        Pool.credential(a)
                                .serves("m")
                                .groups(group)
                                .priority(0)
                                .policy(0, 10, true, 10)
                                .build(anotherKey()),
                        Pool.credential(b).serves("m").groups(group).priority(1).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("hello");
        assertThat(upstream.count(a))
                .as("nothing was sent with a secret that does not open")
                .isZero();
        assertThat(upstream.count(b)).isEqualTo(1);
        CredentialEvent.TransientFailureRecorded failure = onlyTransientFailureOf(a);
        assertThat(failure.kind()).isEqualTo("request_build");
        assertThat(failure.status()).isNull();
        assertThat(failure.message()).isEqualTo("could not build the upstream request: IllegalArgumentException");
        CredentialSnapshot local = views.pool().credential(a).orElseThrow();
        assertThat(local.account().cooldownUntil()).as("the account cools down").isNotNull();
        assertThat(local.models())
                .as("no model is charged: request_build is account-scoped")
                .isEmpty();
        assertThat(usage(b, list -> !list.isEmpty()).get(0).success()).isTrue();
    }

    @Test
    void aPoolWhoseOnlySecretDoesNotOpenTellsTheClientTheRequestCouldNotBeBuilt() {
        String group = Pool.uid("g");
        install(
                List.of(Pool.credential(a)
                        .serves("m")
                        .groups(group)
                        .policy(0, 10, true, 10)
                        .build(anotherKey())),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = call();

        // every account failed: 502 and the code in the body, the build failure as the last failure
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("no_available_credential");
        assertThat(parse(response.body()).at("/error/message").asText())
                .contains("last failure: could not build the upstream request: IllegalArgumentException");
        assertThat(upstream.count(a)).isZero();
        assertThat(onlyTransientFailureOf(a).kind()).isEqualTo("request_build");
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isFalse();
        assertThat(record.status()).isEqualTo(502);
        assertThat(record.reasonCode()).isEqualTo("no_available_credential");
    }

    @Test
    void permanentTextRevokesWithoutRetry() {
        upstream.on(a, json(401, "{\"error\":{\"message\":\"invalid_grant: refresh token has been revoked\"}}"));
        pool(Pool.credential(a).policy(2, 10, true, 10));

        assertThat(call().statusCode()).isEqualTo(200);
        assertThat(call().statusCode()).isEqualTo(200);

        assertThat(upstream.count(a))
                .as("revoked after the first attempt, never tried again")
                .isEqualTo(1);
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOf(CredentialEvent.PermanentFailureRecorded.class);
        assertThat(views.pool().credential(a).orElseThrow().account().status()).isEqualTo(AccountStatus.REVOKED);
    }

    @ParameterizedTest(name = "status {0} is returned as the upstream sent it")
    @ValueSource(ints = {400, 404, 422})
    void clientErrorsPassThroughUntouched(int status) {
        String body = "{\"error\":{\"message\":\"bad parameter: temperature\",\"type\":\"invalid_request_error\"}}";
        upstream.on(a, json(status, body));
        pool(Pool.credential(a).policy(2, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.body()).isEqualTo(body);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(upstream.count(a)).isEqualTo(1);
        assertThat(upstream.count(b)).as("not a failure: no failover").isZero();
        CredentialSnapshot local = views.pool().credential(a).orElseThrow();
        assertThat(local.account().transientFailureCount()).isZero();
        assertThat(local.models()).isEmpty();
    }

    @Test
    void anUpstreamQuotingTheKeyNeverGetsItIntoTheEventOrTheView() {
        String secret = Pool.secretOf(a);
        upstream.on(a, json(200, "{\"error\":{\"message\":\"key " + secret + " is over its limit\"}}"));
        pool(Pool.credential(a).policy(0, 10, true, 10));

        assertThat(call().statusCode()).isEqualTo(200);

        CredentialEvent.TransientFailureRecorded failure = onlyTransientFailureOf(a);
        assertThat(failure.message()).isEqualTo("key [redacted] is over its limit");
        assertThat(failure.responseBody()).doesNotContain(secret).contains("[redacted]");
        assertThat(views.pool().credential(a).orElseThrow().toString()).doesNotContain(secret);
    }

    @Test
    void aClientErrorQuotingTheKeyReachesTheClientMasked() {
        String secret = Pool.secretOf(a);
        upstream.on(a, json(400, "{\"error\":{\"message\":\"key " + secret + " may not set temperature\"}}"));
        pool(Pool.credential(a).policy(0, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("{\"error\":{\"message\":\"key [redacted] may not set temperature\"}}");
    }

    @Test
    void failureBodyOn200IsASemanticFailureAndSwitchesAtOnce() {
        upstream.on(a, json(200, "{\"error\":{\"message\":\"upstream overloaded\",\"type\":\"server_error\"}}"));
        pool(Pool.credential(a).policy(2, 10, true, 10));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("hello");
        assertThat(upstream.count(a))
                .as("a 2xx failure is never retried on the same credential")
                .isEqualTo(1);
        CredentialEvent.TransientFailureRecorded failure = onlyTransientFailureOf(a);
        assertThat(failure.kind()).isEqualTo("semantic_response_transient");
        assertThat(failure.message()).isEqualTo("upstream overloaded");
    }

    @Test
    void quotaExhaustionTakesTheAccountChannel() {
        upstream.on(
                a,
                json(
                        429,
                        "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"You exceeded your current quota\"}}"));
        pool(Pool.credential(a).policy(2, 10, true, 10));

        assertThat(call().statusCode()).isEqualTo(200);
        assertThat(call().statusCode()).isEqualTo(200);

        assertThat(upstream.count(a))
                .as("quota: no retry, and the account is out")
                .isEqualTo(1);
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.QuotaExhaustionRecorded.class,
                        quota -> assertThat(quota.message()).isEqualTo("You exceeded your current quota"));
        assertThat(views.pool().credential(a).orElseThrow().account().status()).isEqualTo(AccountStatus.ERROR);
    }

    @Test
    void aQuotaAnswerOnTheGroupsOnlyCredentialTellsTheClientWhatHappened() {
        String group = Pool.uid("g");
        upstream.on(
                a,
                json(
                        429,
                        "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"You exceeded your current quota, key "
                                + Pool.secretOf(a) + "\"}}"));
        install(
                List.of(Pool.credential(a).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = call();

        assertThat(response.statusCode()).isEqualTo(502);
        String message = parse(response.body()).at("/error/message").asText();
        assertThat(message)
                .as("the refusal says the quota ran out, not only that the pool is empty now")
                .contains("quota exhausted")
                .contains("You exceeded your current quota")
                .doesNotContain(Pool.secretOf(a));
    }

    @Test
    void retryCountAndIntervalAreHonoured() {
        upstream.on(a, json(500, "{}"));
        pool(Pool.credential(a).policy(3, 150, true, 10));

        assertThat(call().statusCode()).isEqualTo(200);

        List<MockUpstream.Hit> hits = upstream.hits(a);
        assertThat(hits).as("1 attempt + retry_count 3").hasSize(4);
        for (int i = 1; i < hits.size(); i++) {
            long gapMillis = (hits.get(i).atNanos() - hits.get(i - 1).atNanos()) / 1_000_000;
            assertThat(gapMillis).as("retry_interval_ms between attempts").isGreaterThanOrEqualTo(150);
        }
    }

    @Test
    void aRequestGivesUpAfterTheRetryLimitOfSixteenCredentials() {
        String group = Pool.uid("g");
        List<CredentialSnapshot> credentials = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            String id = Pool.uid("c" + i);
            ids.add(id);
            upstream.on(id, json(503, "{\"error\":{\"message\":\"overloaded\"}}"));
            credentials.add(Pool.credential(id)
                    .serves("m")
                    .groups(group)
                    .policy(0, 10, false, 10)
                    .build(box));
        }
        install(credentials, List.of(Pool.group(group, false)), Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = call();

        int attempts = ids.stream().mapToInt(upstream::count).sum();
        assertThat(attempts)
                .as("gateway.retry.max-credentials (16): one attempt per credential, the 17th is never tried")
                .isEqualTo(16);
        assertThat(ids.stream().filter(id -> upstream.count(id) > 1)).isEmpty();
        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("no_available_credential");
        assertThat(parse(response.body()).at("/error/message").asText())
                .contains("gave up after 16 credentials")
                .contains("upstream returned 503");
    }

    @Test
    void aFailingCredentialIsAvoidedByTheVeryNextRequest() {
        upstream.on(a, json(503, "{}"));
        pool(Pool.credential(a).policy(0, 10, true, 30));

        for (int i = 0; i < 5; i++) {
            assertThat(call().statusCode()).isEqualTo(200);
        }

        assertThat(upstream.count(a))
                .as("cooling after its first recorded failure")
                .isEqualTo(1);
        assertThat(upstream.count(b)).isEqualTo(5);
    }
}
