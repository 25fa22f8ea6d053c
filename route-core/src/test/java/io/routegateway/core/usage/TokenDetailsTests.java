package io.routegateway.core.usage;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The parts of the totals priced apart, read from every protocol's usage, JSON bodies and streams. */
class TokenDetailsTests {

    @Test
    void chatCompletionsCachedAndReasoningTokens() {
        TokenUsage usage = TokenUsage.fromBody("{\"choices\":[],\"usage\":{\"prompt_tokens\":2000,"
                + "\"completion_tokens\":500,\"prompt_tokens_details\":{\"cached_tokens\":1024},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":300}}}");
        assertThat(usage).isEqualTo(new TokenUsage(2000L, 500L, 1024L, null, null, 300L));
        assertThat(usage.cacheWrite5mTokens()).isNull();
    }

    @Test
    void chatCompletionsStreamReadsTheDetailsOfTheLastChunk() {
        String stream = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}],\"usage\":null}\n\n"
                + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":2000,\"completion_tokens\":500,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":1024},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":300}}}\n\n"
                + "data: [DONE]\n\n";
        assertThat(TokenUsage.fromBody(stream)).isEqualTo(new TokenUsage(2000L, 500L, 1024L, null, null, 300L));
    }

    @Test
    void responsesCachedAndReasoningTokens() {
        String stream = "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":"
                + "{\"usage\":{\"input_tokens\":900,\"output_tokens\":80,\"input_tokens_details\":"
                + "{\"cached_tokens\":512},\"output_tokens_details\":{\"reasoning_tokens\":64}}}}\n\n";
        assertThat(TokenUsage.fromBody(stream)).isEqualTo(new TokenUsage(900L, 80L, 512L, null, null, 64L));
    }

    @Test
    void anthropicSplitsItsWritesIntoFiveMinutesAndOneHour() {
        TokenUsage usage = TokenUsage.fromBody("{\"content\":[],\"usage\":{\"input_tokens\":100,"
                + "\"cache_read_input_tokens\":600,\"cache_creation_input_tokens\":300,"
                + "\"cache_creation\":{\"ephemeral_5m_input_tokens\":200,\"ephemeral_1h_input_tokens\":100},"
                + "\"output_tokens\":50}}");
        // the prompt is the three summed, as the client is told
        assertThat(usage.inputTokens()).isEqualTo(1000L);
        assertThat(usage.cacheReadTokens()).isEqualTo(600L);
        assertThat(usage.cacheWriteTokens()).isEqualTo(300L);
        assertThat(usage.cacheWrite5mTokens()).isEqualTo(200L);
        assertThat(usage.cacheWrite1hTokens()).isEqualTo(100L);
        assertThat(usage.outputTokens()).isEqualTo(50L);
    }

    @Test
    void anthropicWritesWithoutASplitAreFiveMinuteOnes() {
        TokenUsage usage = TokenUsage.fromBody(
                "{\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":40," + "\"output_tokens\":5}}");
        assertThat(usage.cacheWrite5mTokens()).isEqualTo(40L);
        assertThat(usage.cacheWrite1hTokens()).isNull();
        assertThat(usage.inputTokens()).isEqualTo(50L);
    }

    @Test
    void anthropicStreamKeepsTheSplitOfMessageStartWhenMessageDeltaRepeatsOnlyTheTotal() {
        String stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":"
                + "{\"input_tokens\":100,\"cache_read_input_tokens\":600,\"cache_creation_input_tokens\":300,"
                + "\"cache_creation\":{\"ephemeral_5m_input_tokens\":200,\"ephemeral_1h_input_tokens\":100},"
                + "\"output_tokens\":1}}}\n\n"
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"input_tokens\":100,"
                + "\"cache_read_input_tokens\":600,\"cache_creation_input_tokens\":300,\"output_tokens\":50}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        TokenUsage usage = TokenUsage.fromBody(stream);
        assertThat(usage).isEqualTo(new TokenUsage(1000L, 50L, 600L, 300L, 100L, null));
        assertThat(usage.cacheWrite5mTokens()).isEqualTo(200L);
    }

    @Test
    void anthropicSplitWithoutTheTotalGivesTheTotal() {
        TokenUsage usage = TokenUsage.fromBody("{\"usage\":{\"input_tokens\":10,"
                + "\"cache_creation\":{\"ephemeral_1h_input_tokens\":7},\"output_tokens\":5}}");
        assertThat(usage.cacheWriteTokens()).isEqualTo(7L);
        assertThat(usage.cacheWrite1hTokens()).isEqualTo(7L);
        assertThat(usage.cacheWrite5mTokens()).isZero();
    }

    @Test
    void geminiCachedContentAndThoughts() {
        String stream = "data: {\"usageMetadata\":{\"promptTokenCount\":400,\"candidatesTokenCount\":2}}\n\n"
                + "data: {\"usageMetadata\":{\"promptTokenCount\":400,\"cachedContentTokenCount\":256,"
                + "\"candidatesTokenCount\":30,\"thoughtsTokenCount\":70}}\n\n";
        assertThat(TokenUsage.fromBody(stream)).isEqualTo(new TokenUsage(400L, 100L, 256L, null, null, 70L));
    }

    @Test
    void theFrameEndOfALongResponsesStreamCarriesTheDetails() {
        String fragment = "t\"}]}],\"usage\":{\"input_tokens\":900,\"output_tokens\":80,\"input_tokens_details\":"
                + "{\"cached_tokens\":512},\"output_tokens_details\":{\"reasoning_tokens\":64}}}}\n\n";
        assertThat(TokenUsage.fromFrameEnd(fragment)).isEqualTo(new TokenUsage(900L, 80L, 512L, null, null, 64L));
    }

    @Test
    void aRecordsDetailsSumTheWritesAndKeepTheOneHourPart() {
        TokenUsage usage = TokenUsage.ofDetails(1000L, 50L, 600L, 200L, 100L, 7L);
        assertThat(usage.cacheWriteTokens()).isEqualTo(300L);
        assertThat(usage.cacheWrite5mTokens()).isEqualTo(200L);
        assertThat(usage.cacheWrite1hTokens()).isEqualTo(100L);
        assertThat(TokenUsage.ofDetails(1L, 1L, null, null, null, null).cacheWriteTokens())
                .isNull();
    }
}
