package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Gemini model segment goes into the upstream URL with the pool's key: anything that could
 * change that URL is a client 400 {@code invalid_model} that never reaches an upstream nor touches
 * a credential; and the gateway's own error messages never show base URLs, hosts or unbounded
 * client text.
 */
@QuarkusTest
class GeminiPathTests extends GatewayTestBase {

    private static final String GEMINI_OK =
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hello\"}]},\"finishReason\":\"STOP\"}]}";

    private String a;
    private String keyId;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        keyId = Pool.uid("k");
    }

    private void geminiPool() {
        String group = Pool.uid("g");
        upstream.on(
                a, MockUpstream.sequence(json(500, "{\"error\":{\"message\":\"sentinel\"}}"), json(200, GEMINI_OK)));
        install(
                List.of(Pool.credential(a)
                        .platform(Platform.GEMINI)
                        .maps("*", "*")
                        .groups(group)
                        .policy(0, 10, false, 10)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private HttpResponse<String> gemini(String rawSegment) {
        return post("/v1beta/models/" + rawSegment + ":generateContent", keyId, "{\"contents\":[]}");
    }

    @ParameterizedTest(name = "segment {0} is refused")
    @ValueSource(
            strings = {
                "..%2F..%2Fv1%2Ffiles",
                "..%252F..%252Fv1",
                "m%3Falt%3Djson%26key%3Dx",
                "m%23fragment",
                "m%20x",
                "m%25zz",
                "m%00",
                "%2E%2E",
                "m%C3%B6"
            })
    void aSegmentThatCouldChangeTheUpstreamUrlIsAClient400(String segment) {
        geminiPool();

        HttpResponse<String> response = gemini(segment);

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = parse(response.body()).path("error");
        // Gemini's envelope: the status as code, the gateway's code in ErrorInfo.reason
        assertThat(error.path("code").asInt()).isEqualTo(400);
        assertThat(error.at("/details/0/reason").asText()).isEqualTo("invalid_model");
        assertThat(response.body()).doesNotContain("127.0.0.1").doesNotContain(a);
        assertThat(upstream.count(a)).as("nothing reached the upstream").isZero();
        assertUntouchedThenSentinelIsTheFirstEvent();
    }

    @Test
    void anOverlongModelIsRefusedWithABoundedMessage() {
        geminiPool();
        String model = "m".repeat(2_000);

        HttpResponse<String> response = gemini(model);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(parse(response.body()).at("/error/details/0/reason").asText())
                .isEqualTo("invalid_model");
        assertThat(parse(response.body()).at("/error/status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(response.body()).doesNotContain(model).hasSizeLessThan(1_000);
        assertThat(upstream.count(a)).isZero();
    }

    @Test
    void aValidModelIsSentToItsOwnPath() {
        geminiPool();
        upstream.on(a, json(200, GEMINI_OK));

        HttpResponse<String> response = gemini("gemini-2.5-pro");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.hits(a))
                .singleElement()
                .satisfies(hit -> assertThat(hit.path()).isEqualTo("/v1beta/models/gemini-2.5-pro:generateContent"));
    }

    /** Sentinel: the next valid request answers 500; its event must be the credential's first. */
    private void assertUntouchedThenSentinelIsTheFirstEvent() {
        CredentialSnapshot local = views.pool().credential(a).orElseThrow();
        assertThat(local.account().status()).isEqualTo(AccountStatus.OK);
        assertThat(local.account().transientFailureCount()).isZero();
        assertThat(local.models()).isEmpty();
        gemini("gemini-2.5-pro");
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.TransientFailureRecorded.class,
                        sentinel -> assertThat(sentinel.status()).isEqualTo(500));
    }

    @Test
    void a502NeverShowsTheBaseUrlOrTheHost() throws Exception {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        String group = Pool.uid("g");
        install(
                List.of(Pool.credential(a)
                        .baseUrl("http://127.0.0.1:" + closed + "/internal-relay")
                        .serves("m")
                        .groups(group)
                        .policy(0, 10, false, 10)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("no_available_credential");
        assertThat(response.body())
                .contains("last failure: the upstream could not be reached")
                .doesNotContain("127.0.0.1")
                .doesNotContain(String.valueOf(closed))
                .doesNotContain("internal-relay");
    }

    @Test
    void aPassedThroughClientErrorNeverShowsTheBaseUrl() {
        String group = Pool.uid("g");
        upstream.on(
                a,
                (request, body, number) -> json(
                                404, "{\"error\":{\"message\":\"no such path " + upstream.baseUrl(a) + "/v1/x\"}}")
                        .handle(request, body, number));
        install(
                List.of(Pool.credential(a).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body())
                .isEqualTo("{\"error\":{\"message\":\"no such path [redacted]/v1/x\"}}")
                .doesNotContain(upstream.baseUrl(a));
    }

    @Test
    void aHugeModelNameIsNeverEchoedBack() {
        String group = Pool.uid("g");
        upstream.on(a, ok());
        install(
                List.of(Pool.credential(a).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        String model = "x".repeat(100_000);

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat(model));

        assertThat(response.statusCode()).isBetween(400, 599);
        assertThat(parse(response.body()).at("/error/code").asText()).isNotBlank();
        assertThat(response.body()).doesNotContain(model).hasSizeLessThan(2_000);
        assertThat(upstream.count(a)).isZero();
    }
}
