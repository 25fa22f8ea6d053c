package io.routegateway.gateway.forward;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
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
 * The official OpenAI Java SDK against a pool without any OpenAI-protocol credential: Chat
 * Completions served by a Claude account (the Chat → Messages bridge), Responses by a Gemini account
 * (the Responses → Gemini bridge).
 */
@QuarkusTest
class OpenAiSdkBridgeTests extends GatewayTestBase {

    static final String TOOL_USE =
            "{\"id\":\"msg_3\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-up\","
                    + "\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"get_weather\",\"input\":{\"city\":\"Paris\"}}],"
                    + "\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":20,\"output_tokens\":9}}";

    static final String GEMINI_TEXT = "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hello from Gemini\"}],"
            + "\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":4,"
            + "\"candidatesTokenCount\":3,\"totalTokenCount\":7},\"modelVersion\":\"gemini-up\",\"responseId\":\"g1\"}";

    private String claude;
    private String gemini;
    private OpenAIClient client;

    @BeforeEach
    void pool() {
        claude = Pool.uid("claude");
        gemini = Pool.uid("gemini");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        install(
                List.of(
                        Pool.credential(claude)
                                .platform(Platform.CLAUDE)
                                .maps("chat-model", "claude-up")
                                .groups(group)
                                .build(box),
                        Pool.credential(gemini)
                                .platform(Platform.GEMINI)
                                .maps("responses-model", "gemini-up")
                                .groups(group)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        client = Sdks.openAi(gateway, keyId);
    }

    private static ChatCompletionCreateParams.Builder chat() {
        return ChatCompletionCreateParams.builder().model("chat-model").addUserMessage("Say hello");
    }

    @Test
    void chatCompletionsOverAClaudeAccount() {
        upstream.on(claude, json(200, AnthropicSdkTests.MESSAGE));

        ChatCompletion completion = client.chat().completions().create(chat().build());

        assertThat(completion.choices().get(0).message().content()).contains("Hello from the pool");
        MockUpstream.Hit hit = upstream.hits(claude).get(0);
        assertThat(hit.path()).isEqualTo("/v1/messages");
        assertThat(hit.model()).isEqualTo("claude-up");
        assertThat(hit.headers().get("x-api-key")).isEqualTo(Pool.secretOf(claude));
        assertThat(hit.headers().get("anthropic-version")).isNotBlank();
        assertThat(parse(hit.body()).path("max_tokens").asInt()).isPositive();
    }

    @Test
    void chatCompletionsStreamingOverAClaudeAccount() {
        upstream.on(claude, sse(AnthropicSdkTests.STREAM, -1, 5));

        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream =
                client.chat().completions().createStreaming(chat().build())) {
            stream.stream()
                    .flatMap(chunk -> chunk.choices().stream())
                    .forEach(choice -> choice.delta().content().ifPresent(text::append));
        }

        assertThat(text.toString()).isEqualTo("Hello streamed");
        assertThat(parse(upstream.hits(claude).get(0).body()).path("stream").asBoolean())
                .isTrue();
    }

    @Test
    void aToolCallOverAClaudeAccount() {
        upstream.on(claude, json(200, TOOL_USE));
        FunctionDefinition weather = FunctionDefinition.builder()
                .name("get_weather")
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .build())
                .build();

        ChatCompletion completion = client.chat()
                .completions()
                .create(chat().addFunctionTool(weather).build());

        ChatCompletionMessageFunctionToolCall call = completion
                .choices()
                .get(0)
                .message()
                .toolCalls()
                .orElseThrow()
                .get(0)
                .asFunction();
        assertThat(call.id()).isEqualTo("toolu_01");
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(call.function().arguments()).contains("Paris");
        JsonNode sent = parse(upstream.hits(claude).get(0).body());
        assertThat(sent.at("/tools/0/name").asText()).isEqualTo("get_weather");
    }

    @Test
    void responsesOverAGeminiAccount() {
        upstream.on(gemini, json(200, GEMINI_TEXT));

        Response response = client.responses()
                .create(ResponseCreateParams.builder()
                        .model("responses-model")
                        .input("Say hello")
                        .build());

        StringBuilder text = new StringBuilder();
        response.output()
                .forEach(item -> item.message()
                        .ifPresent(message -> message.content()
                                .forEach(content ->
                                        content.outputText().ifPresent(output -> text.append(output.text())))));
        assertThat(text.toString()).isEqualTo("Hello from Gemini");
        MockUpstream.Hit hit = upstream.hits(gemini).get(0);
        assertThat(hit.path()).isEqualTo("/v1beta/models/gemini-up:generateContent");
        assertThat(hit.headers().get("x-goog-api-key")).isEqualTo(Pool.secretOf(gemini));
    }
}
