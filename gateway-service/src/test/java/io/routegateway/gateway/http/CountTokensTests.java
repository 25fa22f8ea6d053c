package io.routegateway.gateway.http;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /v1/messages/count_tokens}: authenticated and model-checked like {@code /v1/messages},
 * routed like it; a native Anthropic credential answers it upstream, any other credential gets the
 * gateway's labelled local estimate and nothing is recorded against it.
 */
@QuarkusTest
class CountTokensTests extends GatewayTestBase {

    private static final String PATH = "/v1/messages/count_tokens";
    private static final String BODY = "{\"model\":\"m\",\"system\":\"You are terse.\","
            + "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Hello there, how are you?\"}]},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"lookup\","
            + "\"input\":{\"q\":\"weather in Paris\"}}]},"
            + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"sunny\"}]}],"
            + "\"tools\":[{\"name\":\"lookup\",\"description\":\"Looks things up\","
            + "\"input_schema\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}]}";

    private String credential;
    private String keyId;
    private String group;

    @BeforeEach
    void names() {
        credential = Pool.uid("cred");
        keyId = Pool.uid("k");
        group = Pool.uid("g");
    }

    private void pool(Platform platform, List<String> keyModels) {
        install(
                List.of(Pool.credential(credential)
                        .platform(platform)
                        .maps("m", "up-m")
                        .groups(group)
                        .build(box)),
                List.of(new GroupSnapshot(
                        group,
                        1,
                        "group-" + group,
                        true,
                        WeightMode.AUTO,
                        0,
                        List.of(),
                        false,
                        BridgePolicy.NATIVE_FIRST,
                        Instant.now())),
                Pool.key(keyId, List.of(group), List.of(), keyModels, true, null, 1));
    }

    @Test
    void aNativeAnthropicCredentialAnswersItUpstreamWithTheMappedModel() {
        pool(Platform.CLAUDE, List.of());
        upstream.on(credential, json(200, "{\"input_tokens\":42}"));

        HttpResponse<String> response = post(PATH, keyId, BODY);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(parse(response.body()).get("input_tokens").asInt()).isEqualTo(42);
        assertThat(response.headers().firstValue("x-route-token-count")).isEmpty();
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(hit.path()).isEqualTo("/v1/messages/count_tokens");
        assertThat(hit.model()).isEqualTo("up-m");
        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.inputTokens()).isNull(); // counted, not spent
    }

    @Test
    void aNativeUpstreamFailureIsClassifiedAndFailsOverLikeAnyOther() {
        pool(Platform.CLAUDE, List.of());
        upstream.on(
                credential,
                json(
                        401,
                        "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"bad key\"}}"));

        HttpResponse<String> response = post(PATH, keyId, BODY);

        assertThat(response.statusCode()).isGreaterThanOrEqualTo(400);
        List<CredentialEvent> events = outcomes(credential, list -> !list.isEmpty());
        assertThat(events).isNotEmpty();
    }

    @Test
    void aBridgedCredentialGetsTheLabelledLocalEstimateAndNoUpstreamCall() {
        pool(Platform.OPENAI, List.of());

        HttpResponse<String> response = post(PATH, keyId, BODY);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-route-token-count")).hasValue("estimate");
        int tokens = parse(response.body()).get("input_tokens").asInt();
        // the texts alone are ~35 o200k tokens, plus the per-message and per-tool overhead
        assertThat(tokens).isBetween(30, 120);
        assertThat(upstream.count(credential)).isZero();
        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.status()).isEqualTo(200);
        assertThat(record.inputTokens()).isNull();
        assertThat(record.outputTokens()).isNull();
    }

    @Test
    void moreTextIsMoreTokens() {
        pool(Platform.GEMINI, List.of());
        int small = parse(post(PATH, keyId, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                        .body())
                .get("input_tokens")
                .asInt();
        int large = parse(post(
                                PATH,
                                keyId,
                                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
                                        + "hello world ".repeat(500) + "\"}]}")
                        .body())
                .get("input_tokens")
                .asInt();
        assertThat(small).isPositive();
        assertThat(large).isGreaterThan(small + 900);
    }

    @Test
    void itNeedsAKeyAndAModelAndTheKeysModelFilterApplies() {
        pool(Platform.OPENAI, List.of("other"));
        assertThat(post(PATH, null, BODY).statusCode()).isEqualTo(401);
        HttpResponse<String> noModel = post(PATH, keyId, "{\"messages\":[]}");
        assertThat(noModel.statusCode()).isEqualTo(403);
        assertThat(parse(noModel.body()).at("/error/code").asText()).isEqualTo("model_required_by_filter");
        HttpResponse<String> filtered = post(PATH, keyId, BODY);
        assertThat(filtered.statusCode()).isEqualTo(403);
        assertThat(parse(filtered.body()).at("/error/code").asText()).isEqualTo("model_filtered");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void hostileBodiesAreRefusedWithACode() {
        pool(Platform.OPENAI, List.of());
        assertCode(post(PATH, keyId, "{\"messages\":[]}"), 400, "model_required");
        assertCode(post(PATH, keyId, "{\"model\":7,\"messages\":[]}"), 400, "model_required");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"messages\":\"hi\"}"), 400, "invalid_request");
        assertCode(
                post(PATH, keyId, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":5}]}"),
                400,
                "invalid_request");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"messages\":[],\"tools\":{}}"), 400, "invalid_request");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"messages\":[],\"system\":3}"), 400, "invalid_request");
        assertCode(post(PATH, keyId, "[1]"), 400, "invalid_json");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void theBodyLimitApplies() {
        pool(Platform.OPENAI, List.of());
        String huge = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "x".repeat(33 * 1024 * 1024)
                + "\"}]}";
        assertCode(post(PATH, keyId, huge), 413, "request_too_large");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void nulAndSpecialTokenTextAreCountedAsText() {
        pool(Platform.OPENAI, List.of());
        HttpResponse<String> response = post(
                PATH,
                keyId,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a\\u0000b <|endoftext|> c\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(parse(response.body()).get("input_tokens").asInt()).isPositive();
    }

    private static void assertCode(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = parse(response.body());
        assertThat(body.at("/error/code").asText()).isEqualTo(code);
    }
}
