package io.routegateway.gateway.http;

import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /v1/models/{id}}: a model the key can use (the same source as {@code GET /v1/models})
 * in OpenAI's shape; anything else 404 {@code model_not_found}, and hostile ids get a code without
 * being echoed past a bound.
 */
@QuarkusTest
class ModelLookupTests extends GatewayTestBase {

    private String keyId;
    private String restricted;

    @BeforeEach
    void pool() {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        keyId = Pool.uid("k");
        install(
                List.of(Pool.credential(credential)
                        .serves("m", "n")
                        .groups(group)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        restricted = Pool.uid("k");
        install(List.of(), List.of(), Pool.key(restricted, List.of(group), List.of(), List.of("n"), true, null, 1));
    }

    @Test
    void aModelTheKeyCanUseIsAnsweredInOpenAisShape() {
        HttpResponse<String> response = get("/v1/models/m", keyId);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = parse(response.body());
        assertThat(body.get("id").asText()).isEqualTo("m");
        assertThat(body.get("object").asText()).isEqualTo("model");
        assertThat(body.has("created")).isTrue();
        assertThat(body.get("owned_by").asText()).isEqualTo("route-gateway");
        assertThat(parse(get("/v1/models", keyId).body()).toString()).contains("\"m\"");
    }

    @Test
    void aModelTheKeyCannotUseOrThatDoesNotExistIs404() {
        assertNotFound(get("/v1/models/nope", keyId));
        assertNotFound(get("/v1/models/m", restricted));
        assertThat(get("/v1/models/n", restricted).statusCode()).isEqualTo(200);
        assertThat(get("/v1/models/m", null).statusCode()).isEqualTo(401);
    }

    @Test
    void hostileIdsGetACodeAndAreNotEchoedPastABound() {
        HttpResponse<String> nul = get("/v1/models/a%00b", keyId);
        assertThat(nul.statusCode()).isEqualTo(400);
        assertThat(parse(nul.body()).at("/error/code").asText()).isEqualTo("invalid_model");

        HttpResponse<String> longId = get("/v1/models/" + "x".repeat(10_000), keyId);
        // refused by the HTTP server's request-line limit before any route (431 or 414)
        assertThat(longId.statusCode()).isBetween(400, 499);
        assertThat(longId.body()).doesNotContain("x".repeat(300));
        HttpResponse<String> overLong = get("/v1/models/" + "x".repeat(2_000), keyId);
        assertThat(overLong.statusCode()).isEqualTo(400);
        assertThat(parse(overLong.body()).at("/error/code").asText()).isEqualTo("invalid_model");
        assertThat(overLong.body()).doesNotContain("x".repeat(300));

        HttpResponse<String> traversal = get("/v1/models/..%2Fetc%2Fpasswd", keyId);
        assertThat(traversal.statusCode()).isIn(400, 404);
        if (traversal.statusCode() == 404 && traversal.body().startsWith("{")) {
            assertThat(parse(traversal.body()).at("/error/code").asText()).isNotEmpty();
        }
        HttpResponse<String> longUnknown = get("/v1/models/" + "y".repeat(250), keyId);
        assertNotFound(longUnknown);
        assertThat(longUnknown.body()).doesNotContain("y".repeat(101));
    }

    @Test
    void geminiListsTheSameModelsInItsShapeAndLooksOneUp() {
        HttpResponse<String> list = get("/v1beta/models", keyId);
        assertThat(list.statusCode()).isEqualTo(200);
        JsonNode models = parse(list.body()).get("models");
        assertThat(models.findValuesAsText("name")).contains("models/m", "models/n");
        assertThat(parse(get("/v1beta/models", restricted).body()).get("models").findValuesAsText("name"))
                .containsExactly("models/n");

        HttpResponse<String> one = get("/v1beta/models/m", keyId);
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(parse(one.body()).get("name").asText()).isEqualTo("models/m");

        HttpResponse<String> missing = get("/v1beta/models/m", restricted);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(parse(missing.body()).at("/error/status").asText()).isEqualTo("NOT_FOUND");
        assertThat(get("/v1beta/models/a%00b", keyId).statusCode()).isEqualTo(404);
        assertThat(get("/v1beta/models", null).statusCode()).isEqualTo(401);
        // a method on a model is still an unsupported operation
        assertThat(get("/v1beta/models/m:countTokens", keyId).statusCode()).isEqualTo(502);
    }

    private static void assertNotFound(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(404);
        JsonNode error = parse(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("model_not_found");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
    }
}
