package io.routegateway.core.usage;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TokenUsageTests {

    @Test
    void chatCompletionsJson() {
        assertThat(
                        TokenUsage.fromBody(
                                "{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5,\"total_tokens\":17}}"))
                .isEqualTo(new TokenUsage(12L, 5L));
    }

    @Test
    void responsesJsonAndStream() {
        assertThat(TokenUsage.fromBody("{\"output\":[],\"usage\":{\"input_tokens\":7,\"output_tokens\":3}}"))
                .isEqualTo(new TokenUsage(7L, 3L));
        String stream =
                "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"usage\":null}}\n\n"
                        + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":"
                        + "{\"usage\":{\"input_tokens\":9,\"output_tokens\":4}}}\n\n";
        assertThat(TokenUsage.fromBody(stream)).isEqualTo(new TokenUsage(9L, 4L));
    }

    @Test
    void anthropicStreamTakesInputFromMessageStartAndFinalOutputFromMessageDelta() {
        String stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":"
                + "{\"input_tokens\":25,\"output_tokens\":1}}}\n\n"
                + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"hi\"}}\n\n"
                + "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":15}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        assertThat(TokenUsage.fromBody(stream)).isEqualTo(new TokenUsage(25L, 15L));
    }

    @Test
    void geminiJsonAndStream() {
        assertThat(TokenUsage.fromBody(
                        "{\"candidates\":[],\"usageMetadata\":{\"promptTokenCount\":4,\"candidatesTokenCount\":8}}"))
                .isEqualTo(new TokenUsage(4L, 8L));
        String stream = "data: {\"usageMetadata\":{\"promptTokenCount\":4,\"candidatesTokenCount\":2}}\n\n"
                + "data: {\"usageMetadata\":{\"promptTokenCount\":4,\"candidatesTokenCount\":6}}\n\n";
        assertThat(TokenUsage.fromBody(stream)).isEqualTo(new TokenUsage(4L, 6L));
    }

    @Test
    void noUsageIsUnknown() {
        assertThat(TokenUsage.fromBody("{\"choices\":[]}")).isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromBody("")).isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromBody(null)).isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromBody("data: not json usage\"\n\n")).isEqualTo(TokenUsage.UNKNOWN);
    }

    @Test
    void onlyDataLinesThatMentionUsageCountWhereverTheySitInALongStream() {
        String frame = "data: {\"choices\":[{\"delta\":{\"content\":\"tok\"}}]}\n\n";
        String stream = frame.repeat(5_000)
                // a mention outside a data line is not a payload
                + "event: usage\"\n"
                + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":5000}}\r\n\r\n"
                + frame
                + "data: [DONE]\n\n";
        assertThat(TokenUsage.fromSse(stream)).isEqualTo(new TokenUsage(3L, 5000L));
        assertThat(TokenUsage.fromBody(stream)).isEqualTo(new TokenUsage(3L, 5000L));
        // two markers on one line are one payload; the last line needs no newline
        assertThat(TokenUsage.fromSse(
                        "data: {\"usageMetadata\":{\"promptTokenCount\":1,\"candidatesTokenCount\":2},\"usage\":null}"))
                .isEqualTo(new TokenUsage(1L, 2L));
        // Gemini's marker in every chunk: each is read in order, the last counts
        StringBuilder gemini = new StringBuilder();
        for (int i = 1; i <= 300; i++) {
            gemini.append("data: {\"usageMetadata\":{\"promptTokenCount\":4,\"candidatesTokenCount\":")
                    .append(i)
                    .append("}}\n\n");
        }
        assertThat(TokenUsage.fromSse(gemini.toString())).isEqualTo(new TokenUsage(4L, 300L));
        assertThat(TokenUsage.fromSse(frame.repeat(100))).isEqualTo(TokenUsage.UNKNOWN);
    }

    @Test
    void aJsonBodyIsReadWithoutBuildingItsTreeAndAnswersAsTheTreeDid() {
        // usage after a long answer; keys in any order; the four places applied in a fixed order
        String answer = "{\"choices\":[{\"message\":{\"content\":\"" + "x".repeat(50_000) + "\"}}],"
                + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":9}}";
        assertThat(TokenUsage.fromBody(answer)).isEqualTo(new TokenUsage(3L, 9L));
        assertThat(TokenUsage.fromBody("{\"usageMetadata\":{\"promptTokenCount\":1,\"candidatesTokenCount\":2},"
                        + "\"usage\":{\"input_tokens\":5,\"output_tokens\":6}}"))
                .as("Gemini's counts are applied last, wherever the key stands")
                .isEqualTo(new TokenUsage(1L, 2L));
        assertThat(TokenUsage.fromBody(
                        "{\"message\":{\"usage\":{\"input_tokens\":25}}," + "\"usage\":{\"output_tokens\":15}}"))
                .as("message.usage fills in what usage left open")
                .isEqualTo(new TokenUsage(25L, 15L));
        assertThat(TokenUsage.fromBody("{\"usage\":{\"prompt_tokens\":1},\"usage\":{\"prompt_tokens\":2}}"))
                .as("a repeated key: the last one, as in the tree")
                .isEqualTo(new TokenUsage(2L, null));
        assertThat(TokenUsage.fromBody("{\"message\":\"usage\",\"response\":[{\"usage\":{\"input_tokens\":4}}]}"))
                .as("message and response count only as objects")
                .isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromBody("[[{\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}],"
                        + "7,{\"usageMetadata\":{\"candidatesTokenCount\":4}}]"))
                .as("arrays, nested ones too, are read element by element")
                .isEqualTo(new TokenUsage(1L, 4L));
        assertThat(TokenUsage.fromBody("{\"usage\":{\"prompt_tokens\":\"12\",\"completion_tokens\":1.5}}"))
                .as("counts that are not integers are not counts")
                .isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromBody("{\"usage\":{\"prompt_tokens\":12},\"choices\":[}"))
                .as("a document broken after its usage is not read as one")
                .isEqualTo(TokenUsage.UNKNOWN);
    }

    @Test
    void laterUsageWinsFieldByField() {
        TokenUsage head = new TokenUsage(5L, 1L);

        assertThat(head.then(new TokenUsage(null, 9L))).isEqualTo(new TokenUsage(5L, 9L));
        assertThat(head.then(TokenUsage.UNKNOWN)).isEqualTo(head);
        assertThat(TokenUsage.UNKNOWN.then(head)).isEqualTo(head);
    }

    @Test
    void theEndOfAFrameWhoseBeginningWasCutOffGivesItsLastUsage() {
        // the end of Responses' response.completed: the answer's text, then the response's own fields
        String end = "xxxx\"}]}],\"tools\":[],\"usage\":{\"input_tokens\":321,\"input_tokens_details\":"
                + "{\"cached_tokens\":0},\"output_tokens\":9876,\"total_tokens\":10197},\"user\":null,"
                + "\"metadata\":{}}}";

        assertThat(TokenUsage.fromFrameEnd(end)).isEqualTo(new TokenUsage(321L, 9876L, 0L, null, null, null));
        assertThat(TokenUsage.fromFrameEnd(
                        "}, \"usageMetadata\" : {\"promptTokenCount\":3,\"candidatesTokenCount\":2}}"))
                .isEqualTo(new TokenUsage(3L, 2L));
    }

    @Test
    void aFrameEndReadsNoUsageFromAnswerTextOrFromWhatIsNotAWholeObject() {
        // an answer that spells a usage object: inside a JSON string its quotes are escaped
        assertThat(TokenUsage.fromFrameEnd("say \\\"usage\\\":{\\\"input_tokens\\\":999} ok\"}]}]}}"))
                .isEqualTo(TokenUsage.UNKNOWN);
        // the key's end inside a longer key, a cut right after the opening quote, a value that is no object
        assertThat(TokenUsage.fromFrameEnd("{\"max_usage\":{\"input_tokens\":7}}"))
                .isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromFrameEnd("usage\":{\"input_tokens\":7}}")).isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromFrameEnd(",\"usage\":null}")).isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromFrameEnd(",\"usage\":\"{\\\"input_tokens\\\":7}\"}"))
                .isEqualTo(TokenUsage.UNKNOWN);
        // cut inside the object: nothing half-read
        assertThat(TokenUsage.fromFrameEnd(",\"usage\":{\"input_tokens\":321,\"output_to"))
                .isEqualTo(TokenUsage.UNKNOWN);
        // the last whole one counts; a broken later one does not hide it
        assertThat(TokenUsage.fromFrameEnd(
                        ",\"usage\":{\"input_tokens\":1,\"output_tokens\":2}},{\"usage\":{\"input_tokens\":"))
                .isEqualTo(new TokenUsage(1L, 2L));
        // counts that are not integers, NUL, a deep nest, nothing
        assertThat(TokenUsage.fromFrameEnd(",\"usage\":{\"input_tokens\":\"12\",\"output_tokens\":1.5}}"))
                .isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromFrameEnd("\u0000,\"usage\":{\"input_tokens\u0000\":3}}"))
                .isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromFrameEnd(",\"usage\":" + "{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000)))
                .isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromFrameEnd("")).isEqualTo(TokenUsage.UNKNOWN);
        assertThat(TokenUsage.fromFrameEnd(null)).isEqualTo(TokenUsage.UNKNOWN);
    }
}
