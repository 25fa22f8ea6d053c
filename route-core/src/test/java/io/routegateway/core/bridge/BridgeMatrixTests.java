package io.routegateway.core.bridge;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.failure.StreamCompletion;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every client protocol against every other upstream protocol, on real wire transcripts: the
 * converted request means what the client's meant, the converted response and stream carry the
 * same text, reasoning, tool calls (ids kept), finish reason and usage, and errors arrive in the
 * client's envelope.
 */
class BridgeMatrixTests {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    static Stream<Arguments> pairs() {
        List<Arguments> pairs = new ArrayList<>();
        for (Protocol client : Protocol.values()) {
            for (Protocol upstream : Protocol.values()) {
                if (client != upstream) {
                    pairs.add(Arguments.of(client, upstream));
                }
            }
        }
        return pairs.stream();
    }

    static Stream<Arguments> pairsAndFixtures() {
        return pairs().flatMap(pair ->
                Stream.of("text", "tools").map(kind -> Arguments.of(pair.get()[0], pair.get()[1], kind)));
    }

    /** The flattened conversation: what must survive every conversion (reasoning aside). */
    private static List<String> conversation(ChatRequest request) {
        List<String> lines = new ArrayList<>();
        for (Message message : request.messages()) {
            for (Part part : message.parts()) {
                String line = message.role() + ":";
                if (part instanceof Part.Text t) {
                    line += "text:" + t.text();
                } else if (part instanceof Part.Image i) {
                    line += "image:" + (i.url() != null ? "url:" + i.url() : i.mediaType() + ":" + i.data());
                } else if (part instanceof Part.ToolCall c) {
                    line += "call:" + c.id() + ":" + c.name() + ":" + Transcripts.parse(c.arguments());
                } else if (part instanceof Part.ToolResult r) {
                    line += "result:" + r.callId() + ":" + r.name() + ":" + r.text();
                } else {
                    continue;
                }
                lines.add(line);
            }
        }
        for (ToolDefinition tool : request.tools()) {
            lines.add("tool:" + tool.name() + ":" + tool.description() + ":" + tool.parameters());
        }
        return lines;
    }

    private static ObjectNode clientRequest(Protocol client, Protocol upstream) {
        ObjectNode body = Transcripts.json(client, "request-tools.json");
        if (upstream == Protocol.OPENAI_RESPONSES) {
            // Responses has no stop sequences; that refusal has its own test.
            body.remove("stop");
            body.remove("stop_sequences");
            if (body.get("generationConfig") instanceof ObjectNode config) {
                config.remove("stopSequences");
            }
        }
        return body;
    }

    @ParameterizedTest(name = "{0} client -> {1} upstream")
    @MethodSource("pairs")
    void requestKeepsItsMeaning(Protocol client, Protocol upstream) {
        ObjectNode body = clientRequest(client, upstream);
        Bridge bridge = Bridge.between(client, upstream);

        RequestConversion conversion = bridge.request(body, "gemini-2.5-pro", false, "upstream-model");

        assertThat(conversion).isInstanceOf(RequestConversion.Converted.class);
        RequestConversion.Converted converted = (RequestConversion.Converted) conversion;
        ChatRequest original = converted.request();
        ChatRequest seenUpstream = Bridge.codec(upstream).decodeRequest(converted.body(), "upstream-model", false);
        assertThat(conversation(seenUpstream)).containsExactlyElementsOf(conversation(original));
        // Anthropic carries JSON mode as an instruction appended to the system prompt.
        assertThat(seenUpstream.systemText()).startsWith(original.systemText());
        assertThat(seenUpstream.maxTokens()).isEqualTo(original.maxTokens());
        assertThat(seenUpstream.stop()).isEqualTo(original.stop());
        if (upstream == Protocol.ANTHROPIC_MESSAGES) {
            assertThat(seenUpstream.systemText()).contains("Respond with a single JSON");
        } else {
            assertThat(schemaOf(seenUpstream)).isEqualTo(schemaOf(original));
        }
        if (upstream != Protocol.GEMINI) {
            assertThat(converted.body().path("model").asText()).isEqualTo("upstream-model");
        }
        boolean thinking = converted.body().has("thinking");
        if (!thinking) {
            assertThat(seenUpstream.temperature()).isEqualTo(original.temperature());
            assertThat(seenUpstream.topP()).isEqualTo(original.topP());
            assertThat(seenUpstream.toolChoice().mode())
                    .isEqualTo(original.toolChoice().mode());
        }
        assertThat(seenUpstream.reasoning() != null).isEqualTo(original.reasoning() != null);
    }

    @ParameterizedTest(name = "{0} client <- {1} upstream, {2}")
    @MethodSource("pairsAndFixtures")
    void responseKeepsItsMeaning(Protocol client, Protocol upstream, String kind) {
        ObjectNode upstreamBody = Transcripts.json(upstream, "response-" + kind + ".json");
        Transcripts.Assembled expected =
                Transcripts.Assembled.of(Bridge.codec(upstream).decodeResponse(upstreamBody));

        ObjectNode clientBody = Bridge.between(client, upstream).response(upstreamBody, NOW);

        Transcripts.Assembled actual =
                Transcripts.Assembled.of(Bridge.codec(client).decodeResponse(clientBody));
        assertThat(actual.text()).isEqualTo(expected.text());
        assertThat(actual.reasoning()).isEqualTo(expected.reasoning());
        assertThat(actual.calls()).isEqualTo(expected.calls());
        assertThat(actual.finish()).isEqualTo(expected.finish());
        assertThat(actual.usage().inputTokens()).isEqualTo(expected.usage().inputTokens());
        assertThat(actual.usage().outputTokens()).isEqualTo(expected.usage().outputTokens());
        if (client != Protocol.ANTHROPIC_MESSAGES) {
            assertThat(orZero(actual.usage().reasoningTokens()))
                    .isEqualTo(orZero(expected.usage().reasoningTokens()));
        }
    }

    private static JsonNode schemaOf(ChatRequest request) {
        return request.outputFormat() == null ? null : request.outputFormat().schema();
    }

    private static Long orZero(Long value) {
        return value == null ? 0L : value;
    }

    private static ChatRequest streamingRequest() {
        return new ChatRequest(
                "m", List.of(), List.of(), List.of(), null, null, List.of(), null, null, null, null, true, true, null);
    }

    @ParameterizedTest(name = "{0} client <- {1} upstream, {2} stream")
    @MethodSource("pairsAndFixtures")
    void streamIsTranslatedFrameByFrame(Protocol client, Protocol upstream, String kind) {
        String upstreamSse = Transcripts.text(upstream, "stream-" + kind + ".sse");
        Transcripts.Assembled expected = Transcripts.Assembled.of(Transcripts.decodeStream(upstream, upstreamSse));
        assertThat(expected.finish()).isNotNull();

        for (long seed = 1; seed <= 5; seed++) {
            StreamTranslator translator = Bridge.between(client, upstream).stream(streamingRequest(), NOW);
            String clientSse = Transcripts.translate(translator, upstreamSse, seed);

            Transcripts.Assembled actual = Transcripts.Assembled.of(Transcripts.decodeStream(client, clientSse));
            assertThat(actual.text()).isEqualTo(expected.text());
            assertThat(actual.reasoning()).isEqualTo(expected.reasoning());
            assertThat(actual.calls()).isEqualTo(expected.calls());
            assertThat(actual.finish()).isEqualTo(expected.finish());
            assertThat(actual.usage().inputTokens()).isEqualTo(expected.usage().inputTokens());
            assertThat(actual.usage().outputTokens()).isEqualTo(expected.usage().outputTokens());
            assertThat(StreamCompletion.hasTerminalMarker(clientSse)).isTrue();
            assertThat(translator.terminal()).isTrue();
            assertThat(translator.usage().outputTokens())
                    .isEqualTo(expected.usage().outputTokens());
        }
    }

    /** Time to first token survives: the first text leaves with the upstream frame that carried it. */
    @ParameterizedTest(name = "{0} client <- {1} upstream")
    @MethodSource("pairs")
    void firstTextLeavesWithItsUpstreamFrame(Protocol client, Protocol upstream) {
        String upstreamSse = Transcripts.text(upstream, "stream-text.sse");
        StreamTranslator translator = Bridge.between(client, upstream).stream(streamingRequest(), NOW);
        StringBuilder clientSse = new StringBuilder();
        for (String frame : upstreamSse.split("\n\n")) {
            clientSse.append(StreamTranslator.wire(translator.feed((frame + "\n\n").getBytes(StandardCharsets.UTF_8))));
            if (frame.contains("\"Hello\"")) {
                break;
            }
        }
        assertThat(Transcripts.Assembled.of(Transcripts.decodeStream(client, clientSse.toString()))
                        .text())
                .isEqualTo("Hello");
        assertThat(translator.terminal()).isFalse();
    }

    /** A stream cut off upstream stays cut off for the client: no terminal event is invented. */
    @ParameterizedTest(name = "{0} client <- {1} upstream")
    @MethodSource("pairs")
    void truncatedUpstreamStreamGivesNoTerminalEvent(Protocol client, Protocol upstream) {
        String upstreamSse = Transcripts.text(upstream, "stream-text.sse");
        String cut = upstreamSse.substring(0, upstreamSse.indexOf("wörld") + 2);
        StreamTranslator translator = Bridge.between(client, upstream).stream(streamingRequest(), NOW);

        String clientSse = Transcripts.translate(translator, cut, 7);

        assertThat(translator.terminal()).isFalse();
        assertThat(StreamCompletion.hasTerminalMarker(clientSse)).isFalse();
        assertThat(Transcripts.Assembled.of(Transcripts.decodeStream(client, clientSse))
                        .text())
                .isEqualTo("Hello");
    }

    static Stream<Arguments> errorPairs() {
        return pairs();
    }

    @ParameterizedTest(name = "{0} client <- {1} upstream error")
    @MethodSource("errorPairs")
    void errorIsReshapedIntoTheClientEnvelope(Protocol client, Protocol upstream) {
        String name = switch (upstream) {
            case OPENAI_CHAT -> "error-429.json";
            case OPENAI_RESPONSES -> "error-400.json";
            case ANTHROPIC_MESSAGES -> "error-529.json";
            case GEMINI -> "error-429.json";
        };
        int status = Integer.parseInt(name.substring(6, 9));
        String upstreamBody = Transcripts.text(upstream, name);
        String message =
                Transcripts.parse(upstreamBody).path("error").path("message").asText();

        ErrorReply reply = Bridge.between(client, upstream).error(status, upstreamBody);

        int expectedStatus = status == 529 && client != Protocol.ANTHROPIC_MESSAGES ? 503 : status;
        assertThat(reply.status()).isEqualTo(expectedStatus);
        JsonNode error = reply.body().path("error");
        assertThat(error.path("message").asText()).isEqualTo(message);
        switch (client) {
            case OPENAI_CHAT, OPENAI_RESPONSES ->
                assertThat(error.path("type").asText()).isNotEmpty();
            case ANTHROPIC_MESSAGES -> {
                assertThat(reply.body().path("type").asText()).isEqualTo("error");
                assertThat(error.path("type").asText())
                        .isEqualTo(
                                status == 529
                                        ? "overloaded_error"
                                        : status == 429 ? "rate_limit_error" : "invalid_request_error");
            }
            case GEMINI -> {
                assertThat(error.path("code").asInt()).isEqualTo(expectedStatus);
                assertThat(error.path("status").asText())
                        .isEqualTo(
                                status == 429
                                        ? "RESOURCE_EXHAUSTED"
                                        : status == 400 ? "INVALID_ARGUMENT" : "UNAVAILABLE");
            }
        }
    }
}
