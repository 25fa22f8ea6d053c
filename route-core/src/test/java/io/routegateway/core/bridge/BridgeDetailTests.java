package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules of single protocols that the matrix does not single out. */
class BridgeDetailTests {

    private static final Instant NOW = BridgeMatrixTests.NOW;

    private static ObjectNode json(String text) {
        return (ObjectNode) Transcripts.parse(text);
    }

    private static RequestConversion convert(Protocol client, Protocol upstream, String body) {
        return Bridge.between(client, upstream).request(json(body), "gemini-2.5-pro", false, "target");
    }

    private static ObjectNode converted(Protocol client, Protocol upstream, String body) {
        RequestConversion conversion = convert(client, upstream, body);
        assertThat(conversion).isInstanceOf(RequestConversion.Converted.class);
        return ((RequestConversion.Converted) conversion).body();
    }

    // ---- what the target cannot express ----

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "openai_responses|openai_chat|{\"model\":\"m\",\"input\":\"hi\",\"previous_response_id\":\"resp_1\"}|previous_response_id",
                "openai_responses|anthropic_messages|{\"model\":\"m\",\"input\":\"hi\",\"store\":true}|store: true",
                "openai_responses|gemini|{\"model\":\"m\",\"input\":\"hi\",\"conversation\":\"conv_1\"}|conversation",
                "openai_responses|openai_chat|{\"model\":\"m\",\"input\":\"hi\",\"tools\":[{\"type\":\"web_search\"}]}|built-in tool web_search",
                "openai_responses|anthropic_messages|{\"model\":\"m\",\"input\":\"hi\",\"tools\":[{\"type\":\"file_search\",\"vector_store_ids\":[\"vs\"]}]}|built-in tool file_search",
                "openai_responses|gemini|{\"model\":\"m\",\"input\":[{\"type\":\"item_reference\",\"id\":\"msg_1\"}]}|item_reference",
                "anthropic_messages|openai_chat|{\"model\":\"m\",\"max_tokens\":5,\"messages\":[],\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}]}|built-in tool web_search_20250305",
                "gemini|openai_chat|{\"contents\":[],\"tools\":[{\"googleSearch\":{}}]}|built-in tool googleSearch",
                "openai_chat|anthropic_messages|{\"model\":\"m\",\"messages\":[],\"n\":2}|n > 1",
                "openai_chat|gemini|{\"model\":\"m\",\"messages\":[],\"tools\":[{\"type\":\"custom\",\"custom\":{\"name\":\"x\"}}]}|tool type custom",
                "anthropic_messages|openai_responses|{\"model\":\"m\",\"max_tokens\":5,\"messages\":[],\"stop_sequences\":[\"x\"]}|stop sequences",
            })
    void whatTheTargetCannotExpressIsUnsupported(String client, String upstream, String body, String detail) {
        RequestConversion conversion = convert(Protocol.fromWire(client), Protocol.fromWire(upstream), body);

        assertThat(conversion).isInstanceOf(RequestConversion.Unsupported.class);
        assertThat(((RequestConversion.Unsupported) conversion).detail()).contains(detail);
    }

    @Test
    void responsesWithoutStoredStateIsConvertedAndNeverStoredUpstream() {
        ObjectNode body = converted(
                Protocol.OPENAI_CHAT,
                Protocol.OPENAI_RESPONSES,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(body.path("store").asBoolean(true)).isFalse();
        assertThat(converted(
                                Protocol.OPENAI_RESPONSES,
                                Protocol.OPENAI_CHAT,
                                "{\"model\":\"m\",\"input\":\"hi\",\"store\":false}")
                        .path("messages"))
                .hasSize(1);
    }

    @Test
    void aBodyOfTheWrongShapeIsInvalidNotUnsupported() {
        assertThat(convert(Protocol.OPENAI_CHAT, Protocol.ANTHROPIC_MESSAGES, "{\"model\":\"m\",\"messages\":\"hi\"}"))
                .isInstanceOf(RequestConversion.Invalid.class);
        assertThat(convert(
                        Protocol.ANTHROPIC_MESSAGES,
                        Protocol.OPENAI_CHAT,
                        "{\"model\":\"m\",\"max_tokens\":\"many\",\"messages\":[]}"))
                .isInstanceOf(RequestConversion.Invalid.class);
        assertThat(Bridge.between(Protocol.GEMINI, Protocol.OPENAI_CHAT)
                        .request(Transcripts.parse("[1]"), "m", false, "m"))
                .isInstanceOf(RequestConversion.Invalid.class);
    }

    // ---- usage ----

    @Test
    void openAiChatUpstreamStreamsAlwaysAskForUsage() {
        ObjectNode body = Bridge.between(Protocol.ANTHROPIC_MESSAGES, Protocol.OPENAI_CHAT)
                                .request(
                                        json(
                                                "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
                                        null,
                                        true,
                                        "gpt")
                        instanceof RequestConversion.Converted c
                ? c.body()
                : null;
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("stream_options").path("include_usage").asBoolean())
                .isTrue();
    }

    @Test
    void theUsageFrameIsShownOnlyToAChatClientThatAskedForIt() {
        String upstream = Transcripts.text(Protocol.ANTHROPIC_MESSAGES, "stream-text.sse");
        for (boolean asked : new boolean[] {false, true}) {
            String body = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]"
                    + (asked ? ",\"stream_options\":{\"include_usage\":true}}" : "}");
            RequestConversion.Converted conversion =
                    (RequestConversion.Converted) Bridge.between(Protocol.OPENAI_CHAT, Protocol.ANTHROPIC_MESSAGES)
                            .request(json(body), null, true, "claude");
            StreamTranslator translator =
                    Bridge.between(Protocol.OPENAI_CHAT, Protocol.ANTHROPIC_MESSAGES).stream(conversion.request(), NOW);

            String client = Transcripts.translate(translator, upstream, 3);

            assertThat(client.contains("\"usage\"")).as("asked=%s", asked).isEqualTo(asked);
            assertThat(client).endsWith("data: [DONE]\n\n");
            // Settled either way: the translator saw the upstream's usage.
            assertThat(translator.usage().inputTokens()).isEqualTo(25L);
            assertThat(translator.usage().outputTokens()).isEqualTo(15L);
        }
    }

    @Test
    void anthropicCacheCountsBecomeCachedPromptTokensAndBack() {
        ObjectNode chat = Bridge.between(Protocol.OPENAI_CHAT, Protocol.ANTHROPIC_MESSAGES)
                .response(Transcripts.json(Protocol.ANTHROPIC_MESSAGES, "response-text.json"), NOW);
        // 2095 uncached + 1000 read + 100 written
        assertThat(chat.path("usage").path("prompt_tokens").asLong()).isEqualTo(3195);
        assertThat(chat.path("usage")
                        .path("prompt_tokens_details")
                        .path("cached_tokens")
                        .asLong())
                .isEqualTo(1000);

        ObjectNode anthropic = Bridge.between(Protocol.ANTHROPIC_MESSAGES, Protocol.OPENAI_CHAT)
                .response(Transcripts.json(Protocol.OPENAI_CHAT, "response-tools.json"), NOW);
        assertThat(anthropic.path("usage").path("input_tokens").asLong()).isEqualTo(82 - 64);
        assertThat(anthropic.path("usage").path("cache_read_input_tokens").asLong())
                .isEqualTo(64);
    }

    @Test
    void geminiThoughtTokensCountAsReasoningOutput() {
        ObjectNode chat = Bridge.between(Protocol.OPENAI_CHAT, Protocol.GEMINI)
                .response(Transcripts.json(Protocol.GEMINI, "response-text.json"), NOW);
        assertThat(chat.path("usage").path("completion_tokens").asLong()).isEqualTo(40);
        assertThat(chat.path("usage")
                        .path("completion_tokens_details")
                        .path("reasoning_tokens")
                        .asLong())
                .isEqualTo(30);
        assertThat(chat.path("usage")
                        .path("prompt_tokens_details")
                        .path("cached_tokens")
                        .asLong())
                .isEqualTo(2);
    }

    // ---- request details ----

    @Test
    void anthropicNeedsMaxTokensAndAThinkingBudgetBelowIt() {
        ObjectNode plain = converted(
                Protocol.OPENAI_CHAT,
                Protocol.ANTHROPIC_MESSAGES,
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(plain.path("max_tokens").asInt()).isEqualTo(AnthropicCodec.DEFAULT_MAX_TOKENS);

        ObjectNode thinking = converted(
                Protocol.OPENAI_CHAT,
                Protocol.ANTHROPIC_MESSAGES,
                "{\"model\":\"m\",\"max_completion_tokens\":4000,\"reasoning_effort\":\"high\",\"temperature\":0.3,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(thinking.path("thinking").path("type").asText()).isEqualTo("enabled");
        assertThat(thinking.path("thinking").path("budget_tokens").asInt()).isEqualTo(3999);
        assertThat(thinking.has("temperature")).isFalse();

        ObjectNode tooSmall = converted(
                Protocol.OPENAI_CHAT,
                Protocol.ANTHROPIC_MESSAGES,
                "{\"model\":\"m\",\"max_tokens\":1000,\"reasoning_effort\":\"low\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(tooSmall.has("thinking")).isFalse();
    }

    @Test
    void reasoningTravelsAsEachProtocolsOwnSetting() {
        String anthropic =
                "{\"model\":\"m\",\"max_tokens\":30000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":20000},"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertThat(converted(Protocol.ANTHROPIC_MESSAGES, Protocol.OPENAI_CHAT, anthropic)
                        .path("reasoning_effort")
                        .asText())
                .isEqualTo("high");
        assertThat(converted(Protocol.ANTHROPIC_MESSAGES, Protocol.OPENAI_RESPONSES, anthropic)
                        .path("reasoning")
                        .path("effort")
                        .asText())
                .isEqualTo("high");
        JsonNode gemini = converted(Protocol.ANTHROPIC_MESSAGES, Protocol.GEMINI, anthropic)
                .path("generationConfig")
                .path("thinkingConfig");
        assertThat(gemini.path("thinkingBudget").asInt()).isEqualTo(20000);
        assertThat(gemini.path("includeThoughts").asBoolean()).isTrue();
    }

    @Test
    void jsonModeTravelsAsEachProtocolsOwnSetting() {
        String chat =
                "{\"model\":\"m\",\"response_format\":{\"type\":\"json_object\"},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertThat(converted(Protocol.OPENAI_CHAT, Protocol.OPENAI_RESPONSES, chat)
                        .path("text")
                        .path("format")
                        .path("type")
                        .asText())
                .isEqualTo("json_object");
        assertThat(converted(Protocol.OPENAI_CHAT, Protocol.GEMINI, chat)
                        .path("generationConfig")
                        .path("responseMimeType")
                        .asText())
                .isEqualTo("application/json");
        assertThat(converted(Protocol.OPENAI_CHAT, Protocol.ANTHROPIC_MESSAGES, chat)
                        .path("system")
                        .asText())
                .contains("JSON object");
    }

    @Test
    void toolChoiceAndParallelCallsMapBetweenProtocols() {
        String chat = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\"}}}],"
                + "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"f\"}},\"parallel_tool_calls\":false}";
        JsonNode anthropic = converted(Protocol.OPENAI_CHAT, Protocol.ANTHROPIC_MESSAGES, chat)
                .path("tool_choice");
        assertThat(anthropic.path("type").asText()).isEqualTo("tool");
        assertThat(anthropic.path("name").asText()).isEqualTo("f");
        assertThat(anthropic.path("disable_parallel_tool_use").asBoolean()).isTrue();
        JsonNode gemini = converted(Protocol.OPENAI_CHAT, Protocol.GEMINI, chat)
                .path("toolConfig")
                .path("functionCallingConfig");
        assertThat(gemini.path("mode").asText()).isEqualTo("ANY");
        assertThat(gemini.path("allowedFunctionNames").get(0).asText()).isEqualTo("f");
        ObjectNode responses = converted(Protocol.OPENAI_CHAT, Protocol.OPENAI_RESPONSES, chat);
        assertThat(responses.path("tool_choice").path("name").asText()).isEqualTo("f");
        assertThat(responses.path("parallel_tool_calls").asBoolean(true)).isFalse();
        assertThat(responses.path("tools").get(0).path("strict").asBoolean(true))
                .isFalse();
    }

    @Test
    void anthropicToolErrorsKeepTheirFlagWhereTheTargetHasOne() {
        ObjectNode body = Transcripts.json(Protocol.ANTHROPIC_MESSAGES, "request-tools.json");
        JsonNode gemini = ((RequestConversion.Converted) Bridge.between(Protocol.ANTHROPIC_MESSAGES, Protocol.GEMINI)
                        .request(body, null, false, "g"))
                .body();
        JsonNode results = gemini.path("contents").get(2).path("parts");
        assertThat(results.get(1)
                        .path("functionResponse")
                        .path("response")
                        .path("error")
                        .asText())
                .isEqualTo("lookup failed");
        assertThat(results.get(1).path("functionResponse").path("name").asText())
                .isEqualTo("get_weather");
        assertThat(results.get(1).path("functionResponse").path("id").asText())
                .isEqualTo("toolu_01B19q90qw90lq917835lq8");
    }

    @Test
    void onlyTheIssuingProtocolGetsSignedReasoningBack() {
        ObjectNode body = Transcripts.json(Protocol.ANTHROPIC_MESSAGES, "request-tools.json");
        JsonNode chat = ((RequestConversion.Converted) Bridge.between(Protocol.ANTHROPIC_MESSAGES, Protocol.OPENAI_CHAT)
                        .request(body, null, false, "g"))
                .body();
        assertThat(chat.toString()).doesNotContain("EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds");
        ObjectNode gemini = Transcripts.json(Protocol.GEMINI, "request-tools.json");
        ChatRequest request = Bridge.codec(Protocol.GEMINI).decodeRequest(gemini, "g", false);
        Part.ToolCall call = (Part.ToolCall) request.messages().get(1).parts().get(0);
        assertThat(call.signature()).isEqualTo("CiQB0e2Kb1");
        assertThat(Bridge.codec(Protocol.GEMINI).encodeRequest(request, "g").toString())
                .contains("\"thoughtSignature\":\"CiQB0e2Kb1\"");
    }

    @Test
    void geminiCallsWithoutIdsArePairedWithTheirResultsInOrder() {
        ChatRequest request = Bridge.codec(Protocol.GEMINI)
                .decodeRequest(Transcripts.json(Protocol.GEMINI, "request-tools.json"), "g", false);
        List<Part> calls = request.messages().get(1).parts();
        List<Part> results = request.messages().get(2).parts();
        assertThat(((Part.ToolResult) results.get(0)).callId()).isEqualTo(((Part.ToolCall) calls.get(0)).id());
        assertThat(((Part.ToolResult) results.get(1)).callId()).isEqualTo(((Part.ToolCall) calls.get(1)).id());
        assertThat(((Part.ToolCall) calls.get(0)).id()).isNotEqualTo(((Part.ToolCall) calls.get(1)).id());
        // Gemini's upper-case schema types become JSON Schema's.
        assertThat(request.tools().get(0).parameters().path("type").asText()).isEqualTo("object");
    }

    // ---- responses and streams ----

    @Test
    void aResponseThatIsNotTheUpstreamsShapeIsATransformFailure() {
        Bridge bridge = Bridge.between(Protocol.ANTHROPIC_MESSAGES, Protocol.OPENAI_CHAT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> bridge.response(json("{\"unexpected\":true}"), NOW))
                .isInstanceOf(BridgeException.class);
        StreamTranslator translator = bridge.stream(
                Bridge.codec(Protocol.ANTHROPIC_MESSAGES)
                        .decodeRequest(json("{\"model\":\"m\",\"max_tokens\":5,\"messages\":[]}"), null, true),
                NOW);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> translator.feed("data: {not json\n\n".getBytes()))
                .isInstanceOf(BridgeException.class);
    }

    @Test
    void anUpstreamErrorInsideAStreamReachesTheClientAsItsErrorEvent() {
        String upstream = Transcripts.text(Protocol.ANTHROPIC_MESSAGES, "stream-text.sse")
                        .substring(
                                0,
                                Transcripts.text(Protocol.ANTHROPIC_MESSAGES, "stream-text.sse")
                                        .indexOf("event: content_block_stop"))
                + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        StreamTranslator translator = Bridge.between(Protocol.OPENAI_RESPONSES, Protocol.ANTHROPIC_MESSAGES).stream(
                BridgeMatrixTestsRequests.streaming(), NOW);

        String client = Transcripts.translate(translator, upstream, 11);

        assertThat(client).contains("event: response.failed").contains("Overloaded");
        assertThat(translator.terminal()).isTrue();
        assertThat(Transcripts.Assembled.of(Transcripts.decodeStream(Protocol.OPENAI_RESPONSES, client))
                        .failed())
                .isTrue();
    }

    @Test
    void responsesStreamEventsAreNumberedInOrder() {
        StreamTranslator translator = Bridge.between(Protocol.OPENAI_RESPONSES, Protocol.GEMINI).stream(
                BridgeMatrixTestsRequests.streaming(), NOW);
        String client = Transcripts.translate(translator, Transcripts.text(Protocol.GEMINI, "stream-tools.sse"), 5);
        SseParser parser = new SseParser();
        int expected = 0;
        for (SseEvent event : parser.feed(client)) {
            JsonNode data = Transcripts.parse(event.data());
            assertThat(data.path("sequence_number").asInt()).isEqualTo(expected++);
            assertThat(data.path("type").asText()).isEqualTo(event.event());
        }
        assertThat(expected).isGreaterThan(8);
    }

    /** The canonical request of an ordinary streaming client, for translator tests. */
    static final class BridgeMatrixTestsRequests {
        static ChatRequest streaming() {
            return new ChatRequest(
                    "m", List.of(), List.of(), List.of(), null, null, List.of(), null, null, null, null, true, true,
                    null);
        }
    }
}
