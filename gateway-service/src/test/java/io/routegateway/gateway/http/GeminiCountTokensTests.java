package io.routegateway.gateway.http;

import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.Platform;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gemini's {@code POST /v1beta/models/{model}:countTokens}: a native Gemini credential answers it
 * upstream on the mapped model; any other gets the gateway's labelled local estimate in Gemini's
 * {@code {"totalTokens": n}} shape, with no upstream call and nothing recorded against it.
 */
@QuarkusTest
class GeminiCountTokensTests extends GatewayTestBase {

    private static final String BODY =
            "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hello there, how are you?\"}]},"
                    + "{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"lookup\",\"args\":{\"q\":\"weather in Paris\"}}}]},"
                    + "{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"name\":\"lookup\",\"response\":{\"r\":\"sunny\"}}}]}]}";

    private String credential;
    private String keyId;

    @BeforeEach
    void names() {
        credential = Pool.uid("cred");
        keyId = Pool.uid("k");
    }

    private void pool(Platform platform) {
        String group = Pool.uid("g");
        install(
                List.of(Pool.credential(credential)
                        .platform(platform)
                        .maps("m", "up-m")
                        .groups(group)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private static String path(String model) {
        return "/v1beta/models/" + model + ":countTokens";
    }

    @Test
    void aNativeGeminiCredentialAnswersItUpstreamOnTheMappedModel() {
        pool(Platform.GEMINI);
        upstream.on(credential, json(200, "{\"totalTokens\":31,\"promptTokensDetails\":[]}"));

        HttpResponse<String> response = post(path("m"), keyId, BODY);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(parse(response.body()).get("totalTokens").asInt()).isEqualTo(31);
        assertThat(response.headers().firstValue("x-route-token-count")).isEmpty();
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(hit.path()).isEqualTo("/v1beta/models/up-m:countTokens");
        assertThat(hit.headers().get("x-goog-api-key")).isEqualTo(Pool.secretOf(credential));
        assertThat(parse(hit.body())).isEqualTo(parse(BODY));
        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.inputTokens()).isNull(); // counted, not spent
    }

    @Test
    void aGenerateContentRequestsModelBecomesTheMappedOne() {
        pool(Platform.GEMINI);
        upstream.on(credential, json(200, "{\"totalTokens\":3}"));

        post(
                path("m"),
                keyId,
                "{\"generateContentRequest\":{\"model\":\"models/m\",\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}}");

        assertThat(parse(upstream.hits(credential).get(0).body())
                        .at("/generateContentRequest/model")
                        .asText())
                .isEqualTo("models/up-m");
    }

    @Test
    void aBridgedCredentialGetsTheLabelledLocalEstimateInGeminisShape() {
        pool(Platform.OPENAI);

        HttpResponse<String> response = post(path("m"), keyId, BODY);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-route-token-count")).hasValue("estimate");
        int tokens = parse(response.body()).get("totalTokens").asInt();
        assertThat(tokens).isBetween(20, 100);
        assertThat(upstream.count(credential)).isZero();
        RequestCompleted record = usage(credential, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.inputTokens()).isNull();
    }

    @Test
    void aLargeBodyIsCountedOffTheEventLoopAndMoreTextIsMoreTokens() {
        pool(Platform.CLAUDE);
        int small = parse(post(path("m"), keyId, "{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}")
                        .body())
                .get("totalTokens")
                .asInt();
        HttpResponse<String> large = post(
                path("m"),
                keyId,
                "{\"contents\":[{\"parts\":[{\"text\":\"" + "hello world ".repeat(20_000) + "\"}]}]}");
        assertThat(large.statusCode()).isEqualTo(200);
        assertThat(small).isPositive();
        assertThat(parse(large.body()).get("totalTokens").asInt()).isGreaterThan(small + 39_000);
    }

    @Test
    void hostileBodiesAndModelsAreRefusedWithACode() {
        pool(Platform.OPENAI);
        assertCode(post(path("m"), null, BODY), 401, "invalid_access_key");
        assertCode(post(path("m"), keyId, "{}"), 400, "invalid_request");
        assertCode(post(path("m"), keyId, "{\"contents\":\"hi\"}"), 400, "invalid_request");
        assertCode(post(path("m"), keyId, "{\"contents\":[{\"parts\":[{\"text\":5}]}]}"), 400, "invalid_request");
        assertCode(post(path("m"), keyId, "{\"contents\":[7]}"), 400, "invalid_request");
        assertCode(post(path("m"), keyId, "{\"generateContentRequest\":[]}"), 400, "invalid_request");
        assertCode(post(path("m"), keyId, "[1]"), 400, "invalid_json");
        assertCode(post(path("a%00b"), keyId, BODY), 400, "invalid_model");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void nulAndSpecialTokenTextAreCountedAsText() {
        pool(Platform.OPENAI);
        HttpResponse<String> response =
                post(path("m"), keyId, "{\"contents\":[{\"parts\":[{\"text\":\"a\\u0000b <|endoftext|> c\"}]}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(parse(response.body()).get("totalTokens").asInt()).isPositive();
    }

    private static void assertCode(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode error = parse(response.body()).get("error");
        // Gemini's envelope: the status as code, the gateway's own code in ErrorInfo.reason
        assertThat(error.get("code").asInt()).isEqualTo(status);
        assertThat(error.at("/details/0/reason").asText()).as(response.body()).isEqualTo(code);
    }
}
