package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.MockUpstream.Behaviour;
import io.routegateway.gateway.support.Pool;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Content a client controls is never evidence about a credential: an upstream that quotes the
 * request back ("The model `X` does not exist", "Unrecognized request argument supplied: X") with a
 * permanent or quota marker the client planted changes nothing, and the client gets the upstream's
 * answer.
 *
 * <p>"Nothing was published" is proven with a sentinel: after the attack the same credential answers
 * one 500, and the first outcome event of the credential must be that 500's (the topic keeps a
 * credential's events in publication order).
 */
@QuarkusTest
class EchoAttackTests extends GatewayTestBase {

    private String a;
    private String b;
    private String keyId;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
    }

    /** OpenAI's wording: an unknown top-level field is named, else the model is said not to exist. */
    static Behaviour openAiEcho(int status) {
        return (request, body, number) -> {
            JsonObject sent = new JsonObject(body);
            String message =
                    "The model `" + sent.getString("model") + "` does not exist or you do not have access to it.";
            for (String field : sent.fieldNames()) {
                if (!field.equals("model") && !field.equals("messages")) {
                    message = "Unrecognized request argument supplied: " + field;
                }
            }
            JsonObject error = new JsonObject()
                    .put("message", message)
                    .put("type", "invalid_request_error")
                    .putNull("param")
                    .putNull("code");
            json(status, new JsonObject().put("error", error).encode()).handle(request, body, number);
        };
    }

    private void pool(Behaviour attacked) {
        String group = Pool.uid("g");
        upstream.on(a, MockUpstream.sequence(attacked, json(500, "{\"error\":{\"message\":\"sentinel\"}}"), ok()));
        upstream.on(b, ok());
        install(
                List.of(
                        Pool.credential(a)
                                .maps("*", "*")
                                .groups(group)
                                .priority(0)
                                .policy(0, 10, true, 10)
                                .build(box),
                        Pool.credential(b)
                                .maps("*", "*")
                                .groups(group)
                                .priority(1)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    /** The next request hits the sentinel; its event must be the credential's first. */
    private void assertNothingWasPublishedBeforeTheSentinel() {
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);
        List<CredentialEvent> events = outcomes(a, list -> !list.isEmpty());
        assertThat(events).hasSize(1);
        assertThat(events.get(0))
                .isInstanceOfSatisfying(
                        CredentialEvent.TransientFailureRecorded.class,
                        sentinel -> assertThat(sentinel.status()).isEqualTo(500));
    }

    private void assertViewUntouched() {
        CredentialSnapshot local = views.pool().credential(a).orElseThrow();
        assertThat(local.account().status()).isEqualTo(AccountStatus.OK);
        assertThat(local.account().transientFailureCount()).isZero();
        assertThat(local.account().cooldownUntil()).isNull();
        assertThat(local.models()).isEmpty();
    }

    @Test
    void aModelNamedInvalidGrantRevokesNothing() {
        pool(openAiEcho(400));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"invalid_grant\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("The model `invalid_grant` does not exist");
        assertThat(upstream.count(b)).as("not a failure: no failover").isZero();
        assertViewUntouched();
        assertNothingWasPublishedBeforeTheSentinel();
    }

    @Test
    void anExtraFieldNamedInsufficientQuotaFlipsNothing() {
        pool(openAiEcho(400));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"insufficient quota\":1}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("Unrecognized request argument supplied: insufficient quota");
        assertThat(upstream.count(b)).isZero();
        assertViewUntouched();
        assertNothingWasPublishedBeforeTheSentinel();
    }

    @Test
    void anEchoOnA401CountsAsTheStatusAloneNeverAsARevocation() {
        pool(openAiEcho(401));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"token has been revoked\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).as("failed over to b").isEqualTo(200);
        List<CredentialEvent> events = outcomes(a, list -> !list.isEmpty());
        assertThat(events)
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.TransientFailureRecorded.class,
                        failure -> assertThat(failure.status()).isEqualTo(401));
        assertThat(views.pool().credential(a).orElseThrow().account().status()).isEqualTo(AccountStatus.OK);
    }
}
