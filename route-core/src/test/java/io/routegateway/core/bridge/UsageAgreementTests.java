package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the client of a bridged answer is told it used and what the gateway records for the request
 * log are the same numbers: the upstream's usage is read by one reader. Prompt tokens count cached
 * ones (read and written) as OpenAI's {@code prompt_tokens} does; Anthropic reports them apart from
 * its {@code input_tokens}. Output tokens count reasoning ones (Gemini's {@code thoughtsTokenCount}).
 */
class UsageAgreementTests {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    /** 20 uncached + 300 written to the cache + 4000 read from it. */
    static final String CACHED_ANTHROPIC_USAGE =
            "{\"input_tokens\":20,\"cache_creation_input_tokens\":300,\"cache_read_input_tokens\":4000,"
                    + "\"output_tokens\":50}";

    static final String CACHED_ANTHROPIC_ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"claude-x\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"end_turn\","
            + "\"stop_sequence\":null,\"usage\":" + CACHED_ANTHROPIC_USAGE + "}";

    /** message_start carries the prompt counts, message_delta the cumulative output (here alone, as it often is). */
    static final String CACHED_ANTHROPIC_STREAM = "event: message_start\n"
            + "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
            + "\"role\":\"assistant\",\"content\":[],\"model\":\"claude-x\",\"stop_reason\":null,"
            + "\"usage\":{\"input_tokens\":20,\"cache_creation_input_tokens\":300,"
            + "\"cache_read_input_tokens\":4000,\"output_tokens\":1}}}\n\n"
            + "event: content_block_start\n"
            + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
            + "event: content_block_delta\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n"
            + "event: content_block_stop\n"
            + "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
            + "event: message_delta\n"
            + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},"
            + "\"usage\":{\"output_tokens\":50}}\n\n"
            + "event: message_stop\n"
            + "data: {\"type\":\"message_stop\"}\n\n";

    /** The newer message_delta repeats every count, cumulative, the cache ones included. */
    static final String CACHED_ANTHROPIC_STREAM_FULL_DELTA =
            CACHED_ANTHROPIC_STREAM.replace("\"usage\":{\"output_tokens\":50}", "\"usage\":" + CACHED_ANTHROPIC_USAGE);

    /** promptTokenCount includes the cached content; thoughts are output billed apart from candidates. */
    static final String CACHED_GEMINI_USAGE = "{\"promptTokenCount\":4320,\"cachedContentTokenCount\":4000,"
            + "\"candidatesTokenCount\":20,\"thoughtsTokenCount\":30,\"totalTokenCount\":4370}";

    static final String CACHED_GEMINI_ANSWER =
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}],"
                    + "\"usageMetadata\":" + CACHED_GEMINI_USAGE + ",\"modelVersion\":\"gemini-x\"}";

    static final String CACHED_GEMINI_STREAM = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"h\"}],"
            + "\"role\":\"model\"}}],\"usageMetadata\":{\"promptTokenCount\":4320,\"cachedContentTokenCount\":4000,"
            + "\"thoughtsTokenCount\":30,\"totalTokenCount\":4350},\"modelVersion\":\"gemini-x\"}\n\n"
            + "data: " + CACHED_GEMINI_ANSWER.replace("\"text\":\"hi\"", "\"text\":\"i\"") + "\n\n";

    static final String CACHED_RESPONSES_USAGE =
            "{\"input_tokens\":4320,\"input_tokens_details\":{\"cached_tokens\":4000},\"output_tokens\":50,"
                    + "\"output_tokens_details\":{\"reasoning_tokens\":30},\"total_tokens\":4370}";

    static final String CACHED_RESPONSES_ANSWER = "{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\","
            + "\"model\":\"gpt-x\",\"output\":[{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"completed\","
            + "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"hi\",\"annotations\":[]}]}],"
            + "\"usage\":" + CACHED_RESPONSES_USAGE + "}";

    static final String CACHED_RESPONSES_STREAM = "event: response.created\n"
            + "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"object\":\"response\","
            + "\"status\":\"in_progress\",\"model\":\"gpt-x\",\"output\":[],\"usage\":null}}\n\n"
            + "event: response.output_text.delta\n"
            + "data: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,"
            + "\"content_index\":0,\"delta\":\"hi\"}\n\n"
            + "event: response.completed\n"
            + "data: {\"type\":\"response.completed\",\"response\":" + CACHED_RESPONSES_ANSWER + "}\n\n";

    @Test
    void aCachedAnthropicAnswerTellsTheChatClientAndTheLogTheSamePromptTokens() {
        JsonNode usage = chatUsage(Protocol.ANTHROPIC_MESSAGES, CACHED_ANTHROPIC_ANSWER);

        assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(20 + 300 + 4000);
        assertThat(usage.at("/prompt_tokens_details/cached_tokens").asLong()).isEqualTo(4000);
        assertThat(usage.path("completion_tokens").asLong()).isEqualTo(50);
        assertThat(TokenUsage.fromBody(CACHED_ANTHROPIC_ANSWER).totals()).isEqualTo(told(usage));
    }

    @Test
    void aCachedAnthropicStreamTellsTheChatClientAndTheLogTheSamePromptTokens() {
        for (String upstream : List.of(CACHED_ANTHROPIC_STREAM, CACHED_ANTHROPIC_STREAM_FULL_DELTA)) {
            JsonNode usage = streamedChatUsage(Protocol.ANTHROPIC_MESSAGES, upstream);

            assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(20 + 300 + 4000);
            assertThat(usage.at("/prompt_tokens_details/cached_tokens").asLong())
                    .isEqualTo(4000);
            assertThat(usage.path("completion_tokens").asLong()).isEqualTo(50);
            assertThat(TokenUsage.fromBody(upstream).totals()).isEqualTo(told(usage));
        }
    }

    @Test
    void aCachedGeminiAnswerWithThoughtsTellsTheChatClientAndTheLogTheSameTokens() {
        JsonNode usage = chatUsage(Protocol.GEMINI, CACHED_GEMINI_ANSWER);
        assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(4320);
        assertThat(usage.at("/prompt_tokens_details/cached_tokens").asLong()).isEqualTo(4000);
        assertThat(usage.path("completion_tokens").asLong()).isEqualTo(20 + 30);
        assertThat(TokenUsage.fromBody(CACHED_GEMINI_ANSWER).totals()).isEqualTo(told(usage));

        JsonNode streamed = streamedChatUsage(Protocol.GEMINI, CACHED_GEMINI_STREAM);
        assertThat(streamed.path("completion_tokens").asLong()).isEqualTo(20 + 30);
        assertThat(TokenUsage.fromBody(CACHED_GEMINI_STREAM).totals()).isEqualTo(told(streamed));
    }

    @Test
    void aCachedResponsesAnswerTellsTheChatClientAndTheLogTheSameTokens() {
        JsonNode usage = chatUsage(Protocol.OPENAI_RESPONSES, CACHED_RESPONSES_ANSWER);
        assertThat(usage.path("prompt_tokens").asLong()).isEqualTo(4320);
        assertThat(usage.at("/prompt_tokens_details/cached_tokens").asLong()).isEqualTo(4000);
        assertThat(TokenUsage.fromBody(CACHED_RESPONSES_ANSWER).totals()).isEqualTo(told(usage));

        JsonNode streamed = streamedChatUsage(Protocol.OPENAI_RESPONSES, CACHED_RESPONSES_STREAM);
        assertThat(TokenUsage.fromBody(CACHED_RESPONSES_STREAM).totals()).isEqualTo(told(streamed));
    }

    static Stream<Arguments> upstreamAnswersAndClients() {
        List<Arguments> rows = new ArrayList<>();
        List<Object[]> answers = new ArrayList<>();
        for (Protocol upstream : Protocol.values()) {
            for (String fixture : List.of("response-text.json", "response-tools.json")) {
                answers.add(new Object[] {upstream, fixture, Transcripts.text(upstream, fixture)});
            }
        }
        answers.add(new Object[] {Protocol.ANTHROPIC_MESSAGES, "cached", CACHED_ANTHROPIC_ANSWER});
        answers.add(new Object[] {Protocol.GEMINI, "cached", CACHED_GEMINI_ANSWER});
        answers.add(new Object[] {Protocol.OPENAI_RESPONSES, "cached", CACHED_RESPONSES_ANSWER});
        for (Object[] answer : answers) {
            for (Protocol client : Protocol.values()) {
                if (client != answer[0]) {
                    rows.add(Arguments.of(client, answer[0], answer[1], answer[2]));
                }
            }
        }
        return rows.stream();
    }

    /**
     * Whatever the client's protocol, its converted answer read back says the tokens the log
     * records: the bridge's canonical usage and the log's reading are one.
     */
    @ParameterizedTest(name = "{0} client <- {1} upstream, {2}")
    @MethodSource("upstreamAnswersAndClients")
    void everyClientIsToldWhatTheLogRecords(Protocol client, Protocol upstream, String fixture, String answer) {
        ObjectNode converted = Bridge.between(client, upstream).response(Transcripts.parse(answer), NOW);
        Usage canonical =
                Bridge.codec(upstream).decodeResponse(Transcripts.parse(answer)).usage();

        assertThat(TokenUsage.fromBody(answer)).isEqualTo(TokenUsage.of(canonical));
        // the totals: a converted answer may add zero details the upstream left out (cached_tokens: 0)
        // or drop ones its protocol has no field for; the log reads the details from the upstream's answer
        assertThat(TokenUsage.fromBody(converted.toString()).totals())
                .isEqualTo(TokenUsage.fromBody(answer).totals());
    }

    private static JsonNode chatUsage(Protocol upstream, String answer) {
        return Bridge.between(Protocol.OPENAI_CHAT, upstream)
                .response(Transcripts.parse(answer), NOW)
                .path("usage");
    }

    /** The usage frame a Chat client that asked for usage is sent. */
    private static JsonNode streamedChatUsage(Protocol upstream, String sse) {
        ChatRequest request = new ChatRequest(
                "m", List.of(), List.of(), List.of(), null, null, List.of(), null, null, null, null, true, true, null);
        StreamTranslator translator = Bridge.between(Protocol.OPENAI_CHAT, upstream).stream(request, NOW);
        String client = Transcripts.translate(translator, sse, 11);
        JsonNode usage = null;
        for (String line : client.split("\n")) {
            if (line.startsWith("data: {")) {
                JsonNode frame = Transcripts.parse(line.substring(6));
                if (frame.path("usage").isObject()) {
                    usage = frame.path("usage");
                }
            }
        }
        assertThat(usage).as("the Chat client's usage frame").isNotNull();
        return usage;
    }

    private static TokenUsage told(JsonNode chatUsage) {
        return new TokenUsage(
                chatUsage.path("prompt_tokens").asLong(),
                chatUsage.path("completion_tokens").asLong());
    }
}
