package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.util.List;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.Platform;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The usage record on the real {@code route.usage} topic carries the token details priced apart:
 * cache reads, 5-minute and 1-hour cache writes, reasoning, from buffered answers and streams.
 */
@QuarkusTest
class TokenDetailsTests extends GatewayTestBase {

    private static final String ANTHROPIC_USAGE = "{\"input_tokens\":100,\"cache_read_input_tokens\":600,"
            + "\"cache_creation_input_tokens\":300,\"cache_creation\":{\"ephemeral_5m_input_tokens\":200,"
            + "\"ephemeral_1h_input_tokens\":100},\"output_tokens\":50}";

    private String credential;
    private String keyId;

    @BeforeEach
    void names() {
        credential = Pool.uid("cred");
        keyId = Pool.uid("k");
    }

    private void pool(CredentialBuilder cred) {
        String group = Pool.uid("g");
        install(
                List.of(cred.serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private RequestCompleted settled() {
        return usage(credential, list -> !list.isEmpty()).get(0);
    }

    private HttpResponse<String> messages(boolean stream) {
        return post(
                "/v1/messages",
                keyId,
                "{\"model\":\"m\",\"max_tokens\":64,\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    }

    @Test
    void anAnthropicAnswerCarriesItsCacheReadAndBothKindsOfWrites() {
        String answer = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"end_turn\","
                + "\"usage\":" + ANTHROPIC_USAGE + "}";
        upstream.on(credential, json(200, answer));
        pool(Pool.credential(credential).platform(Platform.CLAUDE));

        HttpResponse<String> response = messages(false);

        assertThat(response.statusCode()).isEqualTo(200);
        // what the client sees is the upstream's usage, unchanged
        assertThat(parse(response.body()).path("usage")).isEqualTo(parse(ANTHROPIC_USAGE));
        RequestCompleted record = settled();
        assertThat(record.inputTokens()).isEqualTo(1000L);
        assertThat(record.outputTokens()).isEqualTo(50L);
        assertThat(record.cacheReadTokens()).isEqualTo(600L);
        assertThat(record.cacheWrite5mTokens()).isEqualTo(200L);
        assertThat(record.cacheWrite1hTokens()).isEqualTo(100L);
        assertThat(record.reasoningTokens()).isNull();
    }

    @Test
    void anAnthropicStreamKeepsTheSplitOfItsFirstFrame() {
        String start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
                + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":"
                + ANTHROPIC_USAGE.replace("\"output_tokens\":50", "\"output_tokens\":1") + "}}\n\n";
        String delta = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n";
        String end = "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"
                + "\"end_turn\"},\"usage\":{\"output_tokens\":50}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        upstream.on(credential, sse(List.of(start, delta, end), -1, 5));
        pool(Pool.credential(credential).platform(Platform.CLAUDE));

        HttpResponse<String> response = messages(true);

        assertThat(response.statusCode()).isEqualTo(200);
        RequestCompleted record = settled();
        assertThat(record.inputTokens()).isEqualTo(1000L);
        assertThat(record.outputTokens()).isEqualTo(50L);
        assertThat(record.cacheReadTokens()).isEqualTo(600L);
        assertThat(record.cacheWrite5mTokens()).isEqualTo(200L);
        assertThat(record.cacheWrite1hTokens()).isEqualTo(100L);
    }

    @Test
    void anOpenAiAnswerCarriesItsCachedAndReasoningTokens() {
        String answer = "{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":2000,\"completion_tokens\":500,\"total_tokens\":2500,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":1024},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":300}}}";
        upstream.on(credential, json(200, answer));
        pool(Pool.credential(credential));

        HttpResponse<String> response = post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        RequestCompleted record = settled();
        assertThat(record.inputTokens()).isEqualTo(2000L);
        assertThat(record.outputTokens()).isEqualTo(500L);
        assertThat(record.cacheReadTokens()).isEqualTo(1024L);
        assertThat(record.cacheWrite5mTokens()).isNull();
        assertThat(record.cacheWrite1hTokens()).isNull();
        assertThat(record.reasoningTokens()).isEqualTo(300L);
    }
}
