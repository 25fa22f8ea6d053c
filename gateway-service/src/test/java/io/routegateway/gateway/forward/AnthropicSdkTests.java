package io.routegateway.gateway.forward;

import java.util.List;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
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

/** The official Anthropic Java SDK, pointed at the gateway, works unchanged, streaming and not. */
@QuarkusTest
class AnthropicSdkTests extends GatewayTestBase {

    static final String MESSAGE =
            "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-up\","
                    + "\"content\":[{\"type\":\"text\",\"text\":\"Hello from the pool\"}],\"stop_reason\":\"end_turn\","
                    + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":4}}";

    static final List<String> STREAM = List.of(
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_2\",\"type\":\"message\","
                    + "\"role\":\"assistant\",\"model\":\"claude-up\",\"content\":[],\"stop_reason\":null,"
                    + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                    + "{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                    + "{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                    + "{\"type\":\"text_delta\",\"text\":\" streamed\"}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                    + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":3}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");

    private String credential;
    private AnthropicClient client;

    @BeforeEach
    void pool() {
        credential = Pool.uid("claude");
        client =
                Sdks.anthropic(gateway, onePlatformPool(credential, Platform.CLAUDE, "claude-sonnet-4-5", "claude-up"));
    }

    private static MessageCreateParams params() {
        return MessageCreateParams.builder()
                .model("claude-sonnet-4-5")
                .maxTokens(64)
                .addUserMessage("Say hello")
                .build();
    }

    @Test
    void messagesCreate() {
        upstream.on(credential, json(200, MESSAGE));

        Message message = client.messages().create(params());

        assertThat(message.content())
                .singleElement()
                .satisfies(
                        block -> assertThat(block.text().orElseThrow().text()).isEqualTo("Hello from the pool"));
        MockUpstream.Hit hit = upstream.hits(credential).get(0);
        assertThat(hit.path()).isEqualTo("/v1/messages");
        assertThat(hit.model()).isEqualTo("claude-up");
        assertThat(hit.headers().get("x-api-key")).isEqualTo(Pool.secretOf(credential));
        assertThat(hit.headers().get("anthropic-version")).isNotBlank();
    }

    @Test
    void messagesCreateStreaming() {
        upstream.on(credential, sse(STREAM, -1, 5));

        StringBuilder text = new StringBuilder();
        boolean stopped;
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params())) {
            stopped = stream.stream()
                    .peek(event -> event.contentBlockDelta()
                            .flatMap(delta -> delta.delta().text())
                            .ifPresent(delta -> text.append(delta.text())))
                    .anyMatch(RawMessageStreamEvent::isMessageStop);
        }

        assertThat(text.toString()).isEqualTo("Hello streamed");
        assertThat(stopped).isTrue();
    }
}
