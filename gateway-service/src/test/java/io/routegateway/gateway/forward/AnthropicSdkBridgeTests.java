package io.routegateway.gateway.forward;

import java.util.List;
import java.util.Map;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import com.fasterxml.jackson.databind.JsonNode;
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
 * The official Anthropic Java SDK against a pool that has only an OpenAI-compatible relay: every
 * call goes through the Messages → Chat Completions bridge and the SDK reads the answers as its own.
 */
@QuarkusTest
class AnthropicSdkBridgeTests extends GatewayTestBase {

    static final String CHAT_TEXT =
            "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-up\","
                    + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Hello from the relay\"},"
                    + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,\"total_tokens\":13}}";

    static final String CHAT_TOOL_CALL = "{\"id\":\"chatcmpl-2\",\"object\":\"chat.completion\",\"created\":1,"
            + "\"model\":\"gpt-up\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
            + "\"tool_calls\":[{\"id\":\"call_abc\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
            + "\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}],"
            + "\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":8,\"total_tokens\":28}}";

    static final List<String> CHAT_STREAM = List.of(
            "data: {\"id\":\"c3\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-up\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
            "data: {\"id\":\"c3\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-up\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n",
            "data: {\"id\":\"c3\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-up\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{\"content\":\" streamed\"},\"finish_reason\":null}]}\n\n",
            "data: {\"id\":\"c3\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-up\",\"choices\":"
                    + "[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
            "data: {\"id\":\"c3\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-up\",\"choices\":[],"
                    + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,\"total_tokens\":11}}\n\n",
            "data: [DONE]\n\n");

    private String credential;
    private AnthropicClient client;

    @BeforeEach
    void pool() {
        credential = Pool.uid("relay");
        client = Sdks.anthropic(gateway, onePlatformPool(credential, Platform.OPENAI, "claude-sonnet-4-5", "gpt-up"));
    }

    private static MessageCreateParams.Builder params() {
        return MessageCreateParams.builder()
                .model("claude-sonnet-4-5")
                .maxTokens(64)
                .addUserMessage("Say hello");
    }

    private static Tool weatherTool() {
        return Tool.builder()
                .name("get_weather")
                .inputSchema(Tool.InputSchema.builder()
                        .properties(Tool.InputSchema.Properties.builder()
                                .putAdditionalProperty("city", JsonValue.from(Map.of("type", "string")))
                                .build())
                        .build())
                .build();
    }

    @Test
    void messagesCreate() {
        upstream.on(credential, json(200, CHAT_TEXT));

        Message message = client.messages().create(params().build());

        assertThat(message.content())
                .singleElement()
                .satisfies(
                        block -> assertThat(block.text().orElseThrow().text()).isEqualTo("Hello from the relay"));
        assertThat(message.stopReason()).contains(StopReason.END_TURN);
        assertThat(message.usage().outputTokens()).isEqualTo(4);
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(hit.path()).isEqualTo("/v1/chat/completions");
        assertThat(hit.model()).isEqualTo("gpt-up");
        assertThat(hit.headers().get("authorization")).isEqualTo("Bearer " + Pool.secretOf(credential));
        assertThat(hit.headers()).doesNotContainKey("anthropic-version");
        assertThat(parse(hit.body()).at("/messages/0/content").toString()).contains("Say hello");
    }

    @Test
    void messagesCreateStreaming() {
        upstream.on(credential, sse(CHAT_STREAM, -1, 5));

        StringBuilder text = new StringBuilder();
        boolean stopped;
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params().build())) {
            stopped = stream.stream()
                    .peek(event -> event.contentBlockDelta()
                            .flatMap(delta -> delta.delta().text())
                            .ifPresent(delta -> text.append(delta.text())))
                    .anyMatch(RawMessageStreamEvent::isMessageStop);
        }

        assertThat(text.toString()).isEqualTo("Hello streamed");
        assertThat(stopped).isTrue();
        JsonNode sent = parse(upstream.hits(credential).get(0).body());
        assertThat(sent.path("stream").asBoolean()).isTrue();
        assertThat(sent.at("/stream_options/include_usage").asBoolean()).isTrue();
    }

    @Test
    void aToolCallAndItsResult() {
        upstream.on(credential, MockUpstream.sequence(json(200, CHAT_TOOL_CALL), json(200, CHAT_TEXT)));

        Message first = client.messages().create(params().addTool(weatherTool()).build());

        assertThat(first.stopReason()).contains(StopReason.TOOL_USE);
        ToolUseBlock call = first.content().stream()
                .filter(ContentBlock::isToolUse)
                .map(block -> block.toolUse().orElseThrow())
                .findFirst()
                .orElseThrow();
        assertThat(call.id()).isEqualTo("call_abc");
        assertThat(call.name()).isEqualTo("get_weather");
        assertThat(call._input().toString()).contains("Paris");
        assertThat(parse(upstream.hits(credential).get(0).body())
                        .at("/tools/0/function/name")
                        .asText())
                .isEqualTo("get_weather");

        Message second = client.messages()
                .create(params().addMessage(first)
                        .addUserMessageOfContentBlockParams(
                                List.of(ContentBlockParam.ofToolResult(ToolResultBlockParam.builder()
                                        .toolUseId(call.id())
                                        .content("18 degrees")
                                        .build())))
                        .addTool(weatherTool())
                        .build());

        assertThat(second.content().get(0).text().orElseThrow().text()).isEqualTo("Hello from the relay");
        // the result reached the relay as a tool message answering the same call id
        JsonNode sent = parse(upstream.hits(credential).get(1).body());
        assertThat(sent.toString()).contains("\"tool_call_id\":\"call_abc\"").contains("18 degrees");
    }
}
