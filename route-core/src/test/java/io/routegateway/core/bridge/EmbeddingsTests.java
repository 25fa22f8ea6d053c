package io.routegateway.core.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.RouteTrace;
import io.routegateway.core.select.Router;
import io.routegateway.core.upstream.UpstreamRequest;
import io.routegateway.core.upstream.UpstreamRequests;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.cred;
import static io.routegateway.core.select.Fixtures.group;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** OpenAI embeddings: what a request may hold, who serves it, and the bridge to Gemini's batchEmbedContents. */
class EmbeddingsTests {

    private static final AccessKeySnapshot KEY = key("k").groups("g1").build();

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theOpenAiInputShapesAreAccepted() {
        assertThat(Embeddings.problem(json("{\"input\":\"hello\"}"))).isNull();
        assertThat(Embeddings.problem(json("{\"input\":[\"a\",\"b\"],\"encoding_format\":\"base64\"}")))
                .isNull();
        assertThat(Embeddings.problem(json("{\"input\":[1,2,3],\"encoding_format\":\"float\",\"dimensions\":8}")))
                .isNull();
        assertThat(Embeddings.problem(json("{\"input\":[[1,2],[3]],\"user\":\"u\",\"encoding_format\":null}")))
                .isNull();
        assertThat(Embeddings.tokenInput(json("{\"input\":[[1,2],[3]]}"))).isTrue();
        assertThat(Embeddings.tokenInput(json("{\"input\":[1]}"))).isTrue();
        assertThat(Embeddings.tokenInput(json("{\"input\":[\"a\"]}"))).isFalse();
        assertThat(Embeddings.tokenInput(json("{\"input\":\"a\"}"))).isFalse();
    }

    @Test
    void wrongTypesNulAndTooManyInputsAreRefusedWithAReason() {
        Map<String, String> refused = Map.ofEntries(
                Map.entry("{}", "input is required"),
                Map.entry("{\"input\":null}", "input is required"),
                Map.entry("{\"input\":5}", "input must be"),
                Map.entry("{\"input\":{\"text\":\"a\"}}", "input must be"),
                Map.entry("{\"input\":[]}", "must not be empty"),
                Map.entry("{\"input\":\"\"}", "empty string"),
                Map.entry("{\"input\":\"a\\u0000b\"}", "U+0000"),
                Map.entry("{\"input\":[\"a\",\"b\\u0000\"]}", "input[1] holds U+0000"),
                Map.entry("{\"input\":[\"a\",3]}", "input[1] must be a string"),
                Map.entry("{\"input\":[1,\"a\"]}", "input[1] must be a token id"),
                Map.entry("{\"input\":[1,-2]}", "input[1] must be a token id"),
                Map.entry("{\"input\":[1,2.5]}", "input[1] must be a token id"),
                Map.entry("{\"input\":[[1],[]]}", "input[1] must not be empty"),
                Map.entry("{\"input\":[[1],2]}", "input[1] must be an array"),
                Map.entry("{\"input\":[true]}", "input[0] must be"),
                Map.entry("{\"input\":\"a\",\"encoding_format\":\"hex\"}", "encoding_format"),
                Map.entry("{\"input\":\"a\",\"encoding_format\":1}", "encoding_format"),
                Map.entry("{\"input\":\"a\",\"dimensions\":0}", "dimensions"),
                Map.entry("{\"input\":\"a\",\"dimensions\":\"8\"}", "dimensions"),
                Map.entry("{\"input\":\"a\",\"dimensions\":1e10}", "dimensions"),
                Map.entry("{\"input\":\"a\",\"user\":7}", "user must be a string"));
        refused.forEach((body, reason) ->
                assertThat(Embeddings.problem(json(body))).as(body).contains(reason));

        ObjectNode many = Json.MAPPER.createObjectNode();
        ArrayNode input = many.putArray("input");
        for (int i = 0; i < Embeddings.MAX_INPUTS; i++) {
            input.add("t" + i);
        }
        assertThat(Embeddings.problem(many)).isNull();
        input.add("one too many");
        assertThat(Embeddings.problem(many)).contains("2049 items").contains("at most 2048");
    }

    @Test
    void theGeminiRequestHasOneEntryPerTextWithTheMappedModelAndTheDimensions() {
        ObjectNode body = Embeddings.geminiRequest(json("{\"input\":[\"a\",\"b\"],\"dimensions\":16}"), "emb-up");

        assertThat(body.get("requests")).hasSize(2);
        assertThat(body.at("/requests/0/model").asText()).isEqualTo("models/emb-up");
        assertThat(body.at("/requests/0/content/parts/0/text").asText()).isEqualTo("a");
        assertThat(body.at("/requests/1/content/parts/0/text").asText()).isEqualTo("b");
        assertThat(body.at("/requests/1/outputDimensionality").asInt()).isEqualTo(16);
        assertThat(Embeddings.geminiRequest(json("{\"input\":\"a\"}"), "e")
                        .at("/requests/0")
                        .has("outputDimensionality"))
                .isFalse();
        assertThatThrownBy(() -> Embeddings.geminiRequest(json("{\"input\":[1,2]}"), "e"))
                .isInstanceOf(UnsupportedConversionException.class);
    }

    @Test
    void theGeminiAnswerBecomesTheOpenAiListWithFloatsOrLittleEndianBase64() {
        JsonNode gemini = json("{\"embeddings\":[{\"values\":[0.5,-1.25,3]},{\"values\":[0.125]}]}");

        ObjectNode floats = Embeddings.fromGemini(gemini, 2, "emb", false, 7);
        assertThat(floats.get("object").asText()).isEqualTo("list");
        assertThat(floats.get("model").asText()).isEqualTo("emb");
        assertThat(floats.at("/data/0/object").asText()).isEqualTo("embedding");
        assertThat(floats.at("/data/1/index").asInt()).isEqualTo(1);
        assertThat(floats.at("/data/0/embedding/1").asDouble()).isEqualTo(-1.25);
        assertThat(floats.at("/data/0/embedding")).hasSize(3);
        assertThat(floats.at("/usage/prompt_tokens").asLong()).isEqualTo(7);
        assertThat(floats.at("/usage/total_tokens").asLong()).isEqualTo(7);

        ObjectNode base64 = Embeddings.fromGemini(gemini, 2, "emb", true, 7);
        byte[] raw = Base64.getDecoder().decode(base64.at("/data/0/embedding").asText());
        ByteBuffer floatsBack = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(raw).hasSize(12);
        assertThat(floatsBack.getFloat()).isEqualTo(0.5f);
        assertThat(floatsBack.getFloat()).isEqualTo(-1.25f);
        assertThat(floatsBack.getFloat()).isEqualTo(3f);
    }

    @Test
    void anAnswerThatIsNotOneVectorPerInputIsABridgeFailure() {
        assertThatThrownBy(() -> Embeddings.fromGemini(json("{\"embeddings\":[{\"values\":[1]}]}"), 2, "e", false, 1))
                .isInstanceOf(BridgeException.class)
                .hasMessageContaining("1 embeddings for 2 inputs");
        assertThatThrownBy(() -> Embeddings.fromGemini(json("{\"embedding\":{\"values\":[1]}}"), 1, "e", false, 1))
                .isInstanceOf(BridgeException.class);
        assertThatThrownBy(() -> Embeddings.fromGemini(json("{\"embeddings\":[{\"values\":\"x\"}]}"), 1, "e", false, 1))
                .isInstanceOf(BridgeException.class);
        assertThatThrownBy(
                        () -> Embeddings.fromGemini(json("{\"embeddings\":[{\"values\":[\"x\"]}]}"), 1, "e", true, 1))
                .isInstanceOf(BridgeException.class);
        assertThatThrownBy(() -> Embeddings.fromGemini(json("[]"), 1, "e", false, 1))
                .isInstanceOf(BridgeException.class);
    }

    @Test
    void openAiCompatibleApiCredentialsServeNativelyGeminiThroughTheBridgeTheRestNot() {
        EmbeddingsRule rule = new EmbeddingsRule(json("{\"input\":\"a\"}"), false);
        assertThat(rule.serving(cred("r").platform(Platform.OPENAI).build(), Protocol.OPENAI_CHAT))
                .isEqualTo(EmbeddingsRule.Serving.NATIVE);
        assertThat(rule.serving(cred("x").platform(Platform.GROK).build(), Protocol.OPENAI_CHAT))
                .isEqualTo(EmbeddingsRule.Serving.NATIVE);
        assertThat(rule.serving(cred("g").platform(Platform.GEMINI).build(), Protocol.OPENAI_CHAT))
                .isEqualTo(EmbeddingsRule.Serving.BRIDGED);
        assertThat(rule.serving(cred("c").platform(Platform.CLAUDE).build(), Protocol.OPENAI_CHAT))
                .isEqualTo(EmbeddingsRule.Serving.UNSUPPORTED);
        assertThat(rule.unsupportedDetail()).isEqualTo("embeddings: platform claude has no embeddings API");
        EmbeddingsRule official = new EmbeddingsRule(null, false);
        assertThat(official.serving(
                        cred("o")
                                .platform(Platform.CODEX)
                                .kind(CredentialKind.OFFICIAL)
                                .build(),
                        Protocol.OPENAI_CHAT))
                .isEqualTo(EmbeddingsRule.Serving.UNSUPPORTED);
        assertThat(official.unsupportedDetail()).contains("official codex accounts");
        assertThat(new EmbeddingsRule(json("{\"input\":[1,2]}"), false)
                        .serving(cred("g").platform(Platform.GEMINI).build(), Protocol.OPENAI_CHAT))
                .isEqualTo(EmbeddingsRule.Serving.UNSUPPORTED);
        assertThat(new EmbeddingsRule(null, true)
                        .serving(cred("g").platform(Platform.GEMINI).build(), Protocol.OPENAI_CHAT))
                .isEqualTo(EmbeddingsRule.Serving.NATIVE_REQUIRED);
    }

    private static RouteResult route(PoolView view, EmbeddingsRule rule) {
        return Router.route(
                view,
                new RouteRequest(KEY, Protocol.OPENAI_CHAT, "m", null, rule),
                Set.of(),
                null,
                new Random(1),
                NOW,
                true);
    }

    @Test
    void aClaudeOnlyPoolIsOperationUnsupportedAndAGeminiOneIsBridgedWithItsLabel() {
        PoolView claude = PoolView.of(
                List.of(cred("claude").platform(Platform.CLAUDE).serves("m").build()),
                List.of(group("g1").build()),
                List.of(KEY));
        RouteResult refused = route(claude, new EmbeddingsRule(json("{\"input\":\"a\"}"), false));
        assertThat(refused).isInstanceOf(RouteResult.Refused.class);
        assertThat(((RouteResult.Refused) refused).code()).isEqualTo(ReasonCode.OPERATION_UNSUPPORTED);
        assertThat(((RouteResult.Refused) refused).httpStatus()).isEqualTo(400);
        assertThat(((RouteResult.Refused) refused).message()).contains("platform claude has no embeddings API");

        PoolView mixed = PoolView.of(
                List.of(
                        cred("claude").platform(Platform.CLAUDE).serves("m").build(),
                        cred("gemini").platform(Platform.GEMINI).serves("m").build()),
                List.of(group("g1").bridging(BridgePolicy.NATIVE_FIRST).build()),
                List.of(KEY));
        RouteResult.Selected selected =
                (RouteResult.Selected) route(mixed, new EmbeddingsRule(json("{\"input\":\"a\"}"), false));
        assertThat(selected.credential().credentialId()).isEqualTo("gemini");
        assertThat(selected.upstreamProtocol()).isEqualTo(Protocol.GEMINI);
        RouteTrace.CredentialTrace row = selected.trace().groups().get(0).credentials().stream()
                .filter(r -> r.credentialId().equals("gemini"))
                .findFirst()
                .orElseThrow();
        assertThat(row.detail()).contains("bridge " + EmbeddingsRule.GEMINI_LABEL);
    }

    @Test
    void theUpstreamRequestGoesToEachProtocolsEmbeddingsPath() {
        JsonNode body = json("{\"model\":\"m\",\"input\":[\"a\"],\"encoding_format\":\"base64\"}");
        UpstreamRequest relay = UpstreamRequests.embeddings(
                Platform.OPENAI,
                CredentialKind.API,
                "https://relay/v1/",
                "sk",
                Protocol.OPENAI_CHAT,
                body,
                List.of(),
                "up");
        assertThat(relay.url()).isEqualTo("https://relay/v1/embeddings");
        assertThat(relay.stream()).isFalse();
        JsonNode sent = json(new String(relay.body(), StandardCharsets.UTF_8));
        assertThat(sent.get("model").asText()).isEqualTo("up");
        assertThat(sent.get("encoding_format").asText()).isEqualTo("base64");
        assertThat(relay.headers()).contains(Map.entry("authorization", "Bearer sk"));

        UpstreamRequest gemini = UpstreamRequests.embeddings(
                Platform.GEMINI, CredentialKind.API, "https://g/", "gk", Protocol.GEMINI, body, List.of(), "emb/../x");
        assertThat(gemini.url()).startsWith("https://g/v1beta/models/").endsWith(":batchEmbedContents");
        assertThat(gemini.url()).doesNotContain("/../");
        assertThat(gemini.headers()).contains(Map.entry("x-goog-api-key", "gk"));
        JsonNode converted = json(new String(gemini.body(), StandardCharsets.UTF_8));
        assertThat(converted.at("/requests/0/content/parts/0/text").asText()).isEqualTo("a");
        assertThat(UpstreamRequests.embeddings(
                                Platform.GEMINI,
                                CredentialKind.API,
                                "https://g/v1beta",
                                "gk",
                                Protocol.GEMINI,
                                body,
                                List.of(),
                                "e")
                        .url())
                .isEqualTo("https://g/v1beta/models/e:batchEmbedContents");
    }
}
