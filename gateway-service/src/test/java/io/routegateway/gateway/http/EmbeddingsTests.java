package io.routegateway.gateway.http;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /v1/embeddings}: routed by model like chat; an OpenAI-compatible credential gets it
 * forwarded, a Gemini one through the bridge to {@code :batchEmbedContents} (answer reshaped into
 * OpenAI's list, floats or base64), a Claude one cannot serve it.
 */
@QuarkusTest
class EmbeddingsTests extends GatewayTestBase {

    private static final String PATH = "/v1/embeddings";
    private static final String OPENAI_ANSWER = "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,"
            + "\"embedding\":[0.1,0.2]}],\"model\":\"up-m\",\"usage\":{\"prompt_tokens\":5,\"total_tokens\":5}}";
    private static final String GEMINI_ANSWER =
            "{\"embeddings\":[{\"values\":[0.5,-0.25,1.0]},{\"values\":[0.75,0.0,-1.5]}]}";

    private String first;
    private String second;
    private String keyId;
    private String group;

    @BeforeEach
    void names() {
        first = Pool.uid("cred");
        second = Pool.uid("cred");
        keyId = Pool.uid("k");
        group = Pool.uid("g");
    }

    private void pool(Platform platform, Platform other) {
        List<CredentialSnapshot> credentials = new ArrayList<>();
        credentials.add(Pool.credential(first)
                .platform(platform)
                .maps("m", "up-m")
                .policy(0, 0, true, 30)
                .groups(group)
                .build(box));
        if (other != null) {
            credentials.add(Pool.credential(second)
                    .platform(other)
                    .maps("m", "up-m")
                    .groups(group)
                    .build(box));
        }
        install(
                credentials,
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
                Pool.key(keyId, List.of(group)));
    }

    @Test
    void anOpenAiCompatibleCredentialGetsItForwardedWithTheMappedModelAndTheUsageIsRecorded() {
        pool(Platform.OPENAI, null);
        upstream.on(first, json(200, OPENAI_ANSWER));

        HttpResponse<String> response =
                post(PATH, keyId, "{\"model\":\"m\",\"input\":\"hello\",\"encoding_format\":\"base64\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(parse(response.body())).isEqualTo(parse(OPENAI_ANSWER));
        assertThat(response.headers().firstValue("x-route-token-count")).isEmpty();
        MockUpstream.Hit hit = upstream.hits(first).get(0);
        assertThat(hit.path()).isEqualTo("/v1/embeddings");
        assertThat(hit.model()).isEqualTo("up-m");
        assertThat(parse(hit.body()).get("encoding_format").asText()).isEqualTo("base64");
        assertThat(hit.headers().get("authorization")).isEqualTo("Bearer " + Pool.secretOf(first));
        RequestCompleted record = usage(first, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.protocol()).isEqualTo(Protocol.OPENAI_CHAT);
        assertThat(record.inputTokens()).isEqualTo(5L);
        assertThat(outcomes(first, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOf(CredentialEvent.AttemptSucceeded.class);
    }

    @Test
    void aGeminiCredentialIsBridgedToBatchEmbedContentsAndAnswersInOpenAisShape() {
        pool(Platform.GEMINI, null);
        upstream.on(first, json(200, GEMINI_ANSWER));

        HttpResponse<String> response =
                post(PATH, keyId, "{\"model\":\"m\",\"input\":[\"hello\",\"world\"],\"dimensions\":3}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-route-token-count")).hasValue("estimate");
        JsonNode body = parse(response.body());
        assertThat(body.get("object").asText()).isEqualTo("list");
        assertThat(body.get("model").asText()).isEqualTo("m");
        assertThat(body.get("data")).hasSize(2);
        assertThat(body.at("/data/1/index").asInt()).isEqualTo(1);
        assertThat(body.at("/data/1/embedding/2").asDouble()).isEqualTo(-1.5);
        long tokens = body.at("/usage/prompt_tokens").asLong();
        assertThat(tokens).isPositive();
        MockUpstream.Hit hit = upstream.hits(first).get(0);
        assertThat(hit.path()).isEqualTo("/v1beta/models/up-m:batchEmbedContents");
        assertThat(hit.headers().get("x-goog-api-key")).isEqualTo(Pool.secretOf(first));
        assertThat(hit.headers()).doesNotContainKey("authorization");
        JsonNode sent = parse(hit.body());
        assertThat(sent.at("/requests/0/model").asText()).isEqualTo("models/up-m");
        assertThat(sent.at("/requests/1/content/parts/0/text").asText()).isEqualTo("world");
        assertThat(sent.at("/requests/0/outputDimensionality").asInt()).isEqualTo(3);
        RequestCompleted record = usage(first, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.inputTokens()).isEqualTo(tokens);
    }

    @Test
    void base64IsLittleEndianFloat32AsTheOpenAiSdksDecodeIt() {
        pool(Platform.GEMINI, null);
        upstream.on(first, json(200, GEMINI_ANSWER));

        HttpResponse<String> response =
                post(PATH, keyId, "{\"model\":\"m\",\"input\":[\"a\",\"b\"],\"encoding_format\":\"base64\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        byte[] raw = Base64.getDecoder()
                .decode(parse(response.body()).at("/data/0/embedding").asText());
        ByteBuffer floats = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(raw).hasSize(12);
        assertThat(floats.getFloat()).isEqualTo(0.5f);
        assertThat(floats.getFloat()).isEqualTo(-0.25f);
        assertThat(floats.getFloat()).isEqualTo(1.0f);
    }

    @Test
    void aClaudeOnlyPoolIsOperationUnsupportedAndNothingIsSent() {
        pool(Platform.CLAUDE, null);
        upstream.on(first, json(200, "{}"));

        HttpResponse<String> response = post(PATH, keyId, "{\"model\":\"m\",\"input\":\"hello\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode error = parse(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("operation_unsupported");
        assertThat(error.get("message").asText()).contains("platform claude has no embeddings API");
        assertThat(upstream.count(first)).isZero();
    }

    @Test
    void aFailingNativeCredentialIsRecordedAndTheGeminiOneServes() {
        pool(Platform.OPENAI, Platform.GEMINI);
        upstream.on(first, json(500, "{\"error\":{\"message\":\"boom\"}}"));
        upstream.on(second, json(200, "{\"embeddings\":[{\"values\":[1.0]}]}"));

        HttpResponse<String> response = post(PATH, keyId, "{\"model\":\"m\",\"input\":\"hello\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(parse(response.body()).at("/data/0/embedding/0").asDouble()).isEqualTo(1.0);
        assertThat(upstream.count(first)).isEqualTo(1);
        assertThat(outcomes(first, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOf(CredentialEvent.TransientFailureRecorded.class);
        RequestCompleted record = usage(second, list -> !list.isEmpty()).get(0);
        assertThat(record.attempts()).isEqualTo(2);
        assertThat(record.success()).isTrue();
    }

    @Test
    void aGeminiErrorIsReshapedIntoTheOpenAiEnvelopeAndAnUnreadableAnswerIsAResponseTransformFailure() {
        pool(Platform.GEMINI, null);
        upstream.on(
                first,
                MockUpstream.sequence(
                        json(
                                400,
                                "{\"error\":{\"code\":400,\"message\":\"Request payload size exceeds the limit\","
                                        + "\"status\":\"INVALID_ARGUMENT\"}}"),
                        json(200, "{\"embeddings\":[]}")));

        HttpResponse<String> refused = post(PATH, keyId, "{\"model\":\"m\",\"input\":\"hello\"}");
        assertThat(refused.statusCode()).isEqualTo(400);
        JsonNode error = parse(refused.body()).get("error");
        assertThat(error.get("message").asText()).contains("payload size exceeds");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");

        HttpResponse<String> unreadable = post(PATH, keyId, "{\"model\":\"m\",\"input\":\"hello\"}");
        assertThat(unreadable.statusCode()).isEqualTo(502);
        List<CredentialEvent> events = outcomes(first, list -> !list.isEmpty());
        assertThat(events)
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.TransientFailureRecorded.class,
                        event -> assertThat(event.kind()).isEqualTo("response_transform"));
    }

    @Test
    void tokenIdInputCannotGoToGemini() {
        pool(Platform.GEMINI, null);
        upstream.on(first, json(200, GEMINI_ANSWER));

        HttpResponse<String> response = post(PATH, keyId, "{\"model\":\"m\",\"input\":[[1,2],[3]]}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("operation_unsupported");
        assertThat(parse(response.body()).at("/error/message").asText()).contains("token-id input");
        assertThat(upstream.count(first)).isZero();
    }

    @Test
    void hostileBodiesAreRefusedWithACodeBeforeAnythingIsSent() {
        pool(Platform.OPENAI, null);
        upstream.on(first, json(200, OPENAI_ANSWER));
        assertCode(post(PATH, null, "{\"model\":\"m\",\"input\":\"a\"}"), 401, "invalid_access_key");
        assertCode(post(PATH, keyId, "{\"input\":\"a\"}"), 400, "model_required");
        assertCode(post(PATH, keyId, "{\"model\":[\"m\"],\"input\":\"a\"}"), 400, "model_required");
        assertCode(post(PATH, keyId, "{\"model\":\"m\\u0000\",\"input\":\"a\"}"), 400, "invalid_model");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"input\":\"a\\u0000b\"}"), 400, "invalid_request");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"input\":7}"), 400, "invalid_request");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"input\":{\"a\":1}}"), 400, "invalid_request");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"input\":[\"a\",1]}"), 400, "invalid_request");
        assertCode(post(PATH, keyId, "{\"model\":\"m\"}"), 400, "invalid_request");
        assertCode(
                post(PATH, keyId, "{\"model\":\"m\",\"input\":\"a\",\"encoding_format\":\"hex\"}"),
                400,
                "invalid_request");
        assertCode(post(PATH, keyId, "{\"model\":\"m\",\"input\":\"a\",\"dimensions\":-1}"), 400, "invalid_request");
        assertCode(post(PATH, keyId, "[\"a\"]"), 400, "invalid_json");
        StringBuilder huge = new StringBuilder("{\"model\":\"m\",\"input\":[");
        for (int i = 0; i < 100_000; i++) {
            huge.append(i == 0 ? "" : ",").append("\"x\"");
        }
        HttpResponse<String> tooMany = post(PATH, keyId, huge.append("]}").toString());
        assertCode(tooMany, 400, "invalid_request");
        assertThat(parse(tooMany.body()).at("/error/message").asText()).contains("at most 2048");
        assertThat(upstream.count(first)).isZero();
    }

    @Test
    void theKeysProtocolFilterIsOpenAiChats() {
        pool(Platform.OPENAI, null);
        String anthropicOnly = Pool.uid("k");
        install(
                List.of(),
                List.of(),
                Pool.key(
                        anthropicOnly, List.of(group), List.of(Protocol.ANTHROPIC_MESSAGES), List.of(), true, null, 1));

        assertCode(post(PATH, anthropicOnly, "{\"model\":\"m\",\"input\":\"a\"}"), 403, "protocol_filtered");
        assertThat(upstream.count(first)).isZero();
    }

    private static void assertCode(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(parse(response.body()).at("/error/code").asText())
                .as(response.body())
                .isEqualTo(code);
    }
}
