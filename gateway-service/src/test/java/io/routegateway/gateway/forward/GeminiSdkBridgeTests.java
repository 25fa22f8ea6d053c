package io.routegateway.gateway.forward;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.Tool;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.model.Platform;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import io.routegateway.gateway.support.Sdks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official Google GenAI Java SDK against a pool that has only an OpenAI-compatible relay: every
 * call goes through the Gemini → Chat Completions bridge and the SDK reads the answers as Gemini's.
 */
@QuarkusTest
class GeminiSdkBridgeTests extends GatewayTestBase {

    private String credential;
    private Client client;

    @BeforeEach
    void pool() {
        credential = Pool.uid("relay");
        client = Sdks.gemini(gateway, onePlatformPool(credential, Platform.OPENAI, "gemini-2.5-flash", "gpt-up"));
    }

    @Test
    void generateContent() {
        upstream.on(credential, json(200, AnthropicSdkBridgeTests.CHAT_TEXT));

        GenerateContentResponse response = client.models.generateContent("gemini-2.5-flash", "Say hello", null);

        assertThat(response.text()).isEqualTo("Hello from the relay");
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(hit.path()).isEqualTo("/v1/chat/completions");
        assertThat(hit.model()).isEqualTo("gpt-up");
        assertThat(hit.headers().get("authorization")).isEqualTo("Bearer " + Pool.secretOf(credential));
        assertThat(hit.headers()).doesNotContainKey("x-goog-api-key");
    }

    @Test
    void generateContentStream() {
        upstream.on(credential, sse(AnthropicSdkBridgeTests.CHAT_STREAM, -1, 5));

        StringBuilder text = new StringBuilder();
        try (ResponseStream<GenerateContentResponse> stream =
                client.models.generateContentStream("gemini-2.5-flash", "Say hello", null)) {
            for (GenerateContentResponse chunk : stream) {
                String part = chunk.text();
                if (part != null) {
                    text.append(part);
                }
            }
        }

        assertThat(text.toString()).isEqualTo("Hello streamed");
        JsonNode sent = parse(upstream.hits(credential).get(0).body());
        assertThat(sent.path("stream").asBoolean()).isTrue();
    }

    @Test
    void aFunctionCall() {
        upstream.on(credential, json(200, AnthropicSdkBridgeTests.CHAT_TOOL_CALL));
        GenerateContentConfig config = GenerateContentConfig.builder()
                .tools(Tool.builder()
                        .functionDeclarations(FunctionDeclaration.builder()
                                .name("get_weather")
                                .parametersJsonSchema(Map.of(
                                        "type", "object", "properties", Map.of("city", Map.of("type", "string"))))))
                .build();

        GenerateContentResponse response =
                client.models.generateContent("gemini-2.5-flash", "Weather in Paris?", config);

        assertThat(response.functionCalls()).singleElement().satisfies(call -> {
            FunctionCall functionCall = call;
            assertThat(functionCall.name()).contains("get_weather");
            assertThat(functionCall.args().orElseThrow()).containsEntry("city", "Paris");
        });
        assertThat(parse(upstream.hits(credential).get(0).body())
                        .at("/tools/0/function/name")
                        .asText())
                .isEqualTo("get_weather");
    }
}
