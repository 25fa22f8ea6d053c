package io.routegateway.core.forward;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.upstream.UpstreamRequests;
import io.routegateway.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** OpenAI Chat streams: usage always asked of the upstream, its frame shown only to a client that asked. */
class ChatStreamUsageTests {

    private static final String TEXT_1 =
            "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":"
                    + "{\"content\":\"héllo\"},\"finish_reason\":null}],\"usage\":null}\n\n";
    private static final String TEXT_2 =
            "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},"
                    + "\"finish_reason\":\"stop\"}],\"usage\":null}\n\n";
    private static final String USAGE = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,\"total_tokens\":13}}\n\n";
    private static final String DONE = "data: [DONE]\n\n";
    private static final String STREAM = TEXT_1 + TEXT_2 + USAGE + DONE;
    private static final String SHOWN = TEXT_1 + TEXT_2 + DONE;

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theUsageFrameIsLeftOutAndEveryOtherFrameGoesOutUnchanged() {
        ChatStreamUsage.Filter filter = new ChatStreamUsage.Filter();
        byte[] first = bytes(TEXT_1);

        assertThat(filter.feed(first)).isSameAs(first); // nothing to look at: the chunk itself
        assertThat(new String(filter.feed(bytes(TEXT_2 + USAGE + DONE)), StandardCharsets.UTF_8))
                .isEqualTo(TEXT_2 + DONE);
        assertThat(filter.finish()).isEmpty();
        assertThat(new String(ChatStreamUsage.withoutUsageFrame(bytes(STREAM)), StandardCharsets.UTF_8))
                .isEqualTo(SHOWN);
        // the upstream's own bytes still settle the tokens
        assertThat(TokenUsage.fromBody(STREAM)).isEqualTo(new TokenUsage(9L, 4L));
    }

    @Test
    void whereverTheChunksAreCutTheClientGetsTheSameBytesWithoutTheUsageFrame() {
        byte[] stream = bytes(STREAM);
        for (int cut = 1; cut < stream.length; cut++) {
            for (int second = cut + 1; second <= stream.length; second += 7) {
                ChatStreamUsage.Filter filter = new ChatStreamUsage.Filter();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.writeBytes(filter.feed(java.util.Arrays.copyOfRange(stream, 0, cut)));
                out.writeBytes(filter.feed(java.util.Arrays.copyOfRange(stream, cut, second)));
                out.writeBytes(filter.feed(java.util.Arrays.copyOfRange(stream, second, stream.length)));
                out.writeBytes(filter.finish());
                assertThat(out.toString(StandardCharsets.UTF_8))
                        .as("cut at %d and %d", cut, second)
                        .isEqualTo(SHOWN);
            }
        }
    }

    @Test
    void theUsageMarkerIsFoundAtEitherEdgeOfAChunkAndNotInLookAlikes() {
        // the marker's last byte first: a chunk that is the usage frame alone, one where the marker
        // is the chunk's first bytes after "data: ", brackets and near-misses before a real one
        ChatStreamUsage.Filter alone = new ChatStreamUsage.Filter();
        assertThat(alone.feed(bytes(USAGE))).isEmpty();
        assertThat(alone.finish()).isEmpty();

        String bare = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\n";
        ChatStreamUsage.Filter atStart = new ChatStreamUsage.Filter();
        assertThat(atStart.feed(bytes(bare + DONE)))
                .asString(StandardCharsets.UTF_8)
                .isEqualTo(DONE);

        String lookAlikes = "data: {\"choices\":[{\"delta\":{\"content\":\"]] choices\\\":[ ] \\\"choices\\\":\"}}],"
                + "\"usage\":null}\n\n";
        ChatStreamUsage.Filter near = new ChatStreamUsage.Filter();
        byte[] onlyLookAlikes = bytes(lookAlikes);
        assertThat(near.feed(onlyLookAlikes)).isSameAs(onlyLookAlikes);
        assertThat(near.feed(bytes(lookAlikes + USAGE + DONE)))
                .asString(StandardCharsets.UTF_8)
                .isEqualTo(lookAlikes + DONE);
    }

    @Test
    void anUnterminatedLastFrameIsSentAtTheEndUnlessItIsTheUsageFrame() {
        ChatStreamUsage.Filter filter = new ChatStreamUsage.Filter();
        assertThat(filter.feed(bytes(TEXT_1 + "data: {\"id\""))).isEqualTo(bytes(TEXT_1));
        assertThat(new String(filter.finish(), StandardCharsets.UTF_8)).isEqualTo("data: {\"id\"");

        ChatStreamUsage.Filter cut = new ChatStreamUsage.Filter();
        String unterminated = USAGE.substring(0, USAGE.length() - 2);
        assertThat(cut.feed(bytes(TEXT_1 + unterminated))).isEqualTo(bytes(TEXT_1));
        assertThat(cut.finish()).isEmpty();
    }

    @Test
    void aFrameFarLargerThanAUsageFrameIsNotHeldBack() {
        ChatStreamUsage.Filter filter = new ChatStreamUsage.Filter();
        byte[] large = bytes("data: {\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(70_000));
        assertThat(filter.feed(large)).isEqualTo(large);
        assertThat(filter.feed(bytes("\"}}]}\n\n"))).isEqualTo(bytes("\"}}]}\n\n"));
        assertThat(filter.finish()).isEmpty();
    }

    @Test
    void framesWithEmptyChoicesButNoUsageAndCrlfFramesAreKept() {
        String noUsage = "data: {\"id\":\"c\",\"choices\":[],\"usage\":null}\n\n";
        String crlfUsage = USAGE.replace("\n\n", "\r\n\r\n");
        assertThat(new String(
                        ChatStreamUsage.withoutUsageFrame(bytes(noUsage + crlfUsage + DONE)), StandardCharsets.UTF_8))
                .isEqualTo(noUsage + DONE);
    }

    @Test
    void onlyAClientThatStreamsWithoutAskingHasTheFrameHidden() {
        assertThat(ChatStreamUsage.hidesUsageFrame(json("{\"stream\":true}"), true))
                .isTrue();
        assertThat(ChatStreamUsage.hidesUsageFrame(
                        json("{\"stream\":true,\"stream_options\":{\"include_usage\":false}}"), true))
                .isTrue();
        assertThat(ChatStreamUsage.hidesUsageFrame(
                        json("{\"stream\":true,\"stream_options\":{\"include_usage\":true}}"), true))
                .isFalse();
        assertThat(ChatStreamUsage.hidesUsageFrame(json("{}"), false)).isFalse();
    }

    @Test
    void everyOpenAiChatStreamRequestAsksTheUpstreamForUsageAndKeepsTheClientsOtherStreamOptions() {
        JsonNode streamed = sent(Protocol.OPENAI_CHAT, "{\"model\":\"m\",\"stream\":true,\"messages\":[]}", true);
        assertThat(streamed.at("/stream_options/include_usage").asBoolean()).isTrue();
        assertThat(streamed.get("model").asText()).isEqualTo("up");

        JsonNode declined = sent(
                Protocol.OPENAI_CHAT,
                "{\"model\":\"m\",\"stream\":true,\"stream_options\":{\"include_usage\":false,\"include_obfuscation\":false}}",
                true);
        assertThat(declined.at("/stream_options/include_usage").asBoolean()).isTrue();
        assertThat(declined.at("/stream_options/include_obfuscation").isBoolean())
                .isTrue();

        assertThat(sent(Protocol.OPENAI_CHAT, "{\"model\":\"m\",\"messages\":[]}", false)
                        .has("stream_options"))
                .isFalse();
        assertThat(sent(Protocol.OPENAI_RESPONSES, "{\"model\":\"m\",\"stream\":true,\"input\":\"x\"}", true)
                        .has("stream_options"))
                .isFalse();
    }

    private static JsonNode sent(Protocol protocol, String body, boolean stream) {
        return json(new String(
                UpstreamRequests.forward(
                                Platform.OPENAI,
                                CredentialKind.API,
                                "https://relay/v1",
                                "sk",
                                protocol,
                                json(body),
                                List.of(),
                                "up",
                                stream)
                        .body(),
                StandardCharsets.UTF_8));
    }
}
