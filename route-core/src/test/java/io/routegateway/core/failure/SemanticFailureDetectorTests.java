package io.routegateway.core.failure;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class SemanticFailureDetectorTests {

    static SemanticResult.Failure failure(String body) {
        SemanticResult result = SemanticFailureDetector.detect(body);
        assertThat(result).isInstanceOf(SemanticResult.Failure.class);
        return (SemanticResult.Failure) result;
    }

    static void noFailure(String body) {
        assertThat(SemanticFailureDetector.detect(body)).isEqualTo(SemanticResult.NO_FAILURE);
    }

    @Nested
    class OpenAiChatCompletions {

        @Test
        void normalCompletionIsNotAFailure() {
            noFailure("""
                    {"id":"chatcmpl-1","object":"chat.completion","model":"gpt-5.6-sol",
                     "choices":[{"index":0,"message":{"role":"assistant","content":"Hello"},"finish_reason":"stop"}],
                     "usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}""");
        }

        @Test
        void errorObjectIsAFailure() {
            SemanticResult.Failure failure = failure(
                    "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}");
            assertThat(failure.message()).isEqualTo("Rate limit reached");
            assertThat(failure.errorCode()).isEqualTo("rate_limit_exceeded");
            assertThat(failure.errorType()).isEqualTo("requests");
            assertThat(failure.rawSnippet()).contains("Rate limit reached");
        }

        @Test
        void normalStreamIsNotAFailure() {
            noFailure("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                    + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
        }

        @Test
        void errorDataFrameInStreamIsAFailure() {
            SemanticResult.Failure failure = failure("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                    + "data: {\"error\":{\"message\":\"upstream overloaded\",\"type\":\"server_error\"}}\n\n");
            assertThat(failure.message()).isEqualTo("upstream overloaded");
            assertThat(failure.errorType()).isEqualTo("server_error");
            assertThat(failure.rawSnippet()).startsWith("{\"error\"");
        }

        @Test
        void contentThatTalksAboutErrorsIsNotAFailure() {
            noFailure(
                    "{\"choices\":[{\"message\":{\"content\":\"The log said \\\"error\\\": failed, success false\"}}]}");
            noFailure("data: {\"choices\":[{\"delta\":{\"content\":\"error: request failed\"}}]}\n\ndata: [DONE]\n\n");
        }
    }

    @Nested
    class OpenAiResponses {

        @Test
        void completedResponseWithNullErrorIsNotAFailure() {
            noFailure("""
                    {"id":"resp_1","object":"response","status":"completed","error":null,"incomplete_details":null,
                     "output":[{"type":"message","content":[{"type":"output_text","text":"Hi"}]}]}""");
        }

        @Test
        void failedResponseObjectIsAFailure() {
            SemanticResult.Failure failure = failure("{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"failed\","
                    + "\"error\":{\"code\":\"server_error\",\"message\":\"The model failed\"},\"output\":[]}");
            assertThat(failure.message()).isEqualTo("The model failed");
            assertThat(failure.errorCode()).isEqualTo("server_error");
        }

        @Test
        void responseFailedEventIsAFailure() {
            SemanticResult.Failure failure = failure("""
                    event: response.created
                    data: {"type":"response.created","response":{"status":"in_progress","error":null}}

                    event: response.failed
                    data: {"type":"response.failed","response":{"status":"failed","error":{"code":"rate_limit_exceeded","message":"Too many requests"}}}

                    """);
            assertThat(failure.message()).isEqualTo("Too many requests");
            assertThat(failure.errorCode()).isEqualTo("rate_limit_exceeded");
        }

        @Test
        void responseFailedDataWithoutEventLineIsAFailure() {
            assertThat(SemanticFailureDetector.detect(
                                    "data: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":{\"message\":\"boom\"}}}\n\n")
                            .isFailure())
                    .isTrue();
        }

        @Test
        void errorEventIsAFailureWithTopLevelCode() {
            SemanticResult.Failure failure = failure(
                    "event: error\ndata: {\"type\":\"error\",\"code\":\"insufficient_quota\","
                            + "\"message\":\"You exceeded your current quota\",\"param\":null,\"sequence_number\":1}\n\n");
            assertThat(failure.errorCode()).isEqualTo("insufficient_quota");
            assertThat(failure.message()).isEqualTo("You exceeded your current quota");
            assertThat(failure.errorType())
                    .as("top-level type names the envelope")
                    .isNull();
        }

        @Test
        void normalStreamIsNotAFailure() {
            noFailure("""
                    event: response.created
                    data: {"type":"response.created","response":{"id":"resp_1","status":"in_progress","error":null}}

                    event: response.output_text.delta
                    data: {"type":"response.output_text.delta","delta":"Hi"}

                    event: response.completed
                    data: {"type":"response.completed","response":{"id":"resp_1","status":"completed","error":null}}

                    """);
        }
    }

    @Nested
    class AnthropicMessages {

        @Test
        void normalMessageIsNotAFailure() {
            noFailure("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                    + "\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}],\"stop_reason\":\"end_turn\"}");
        }

        @Test
        void errorEnvelopeIsAFailure() {
            SemanticResult.Failure failure = failure(
                    "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
            assertThat(failure.message()).isEqualTo("Overloaded");
            assertThat(failure.errorType()).isEqualTo("overloaded_error");
        }

        @Test
        void typeErrorWithoutErrorObjectIsStillAFailure() {
            SemanticResult.Failure failure = failure("{\"type\":\"error\",\"message\":\"relay broke\"}");
            assertThat(failure.message()).isEqualTo("relay broke");
            assertThat(failure.errorType()).isNull();
        }

        @Test
        void errorEventInStreamIsAFailure() {
            SemanticResult.Failure failure = failure("""
                    event: message_start
                    data: {"type":"message_start","message":{"id":"msg_1","content":[]}}

                    event: error
                    data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}

                    """);
            assertThat(failure.message()).isEqualTo("Overloaded");
        }

        @Test
        void normalStreamIsNotAFailure() {
            noFailure("""
                    event: message_start
                    data: {"type":"message_start","message":{"id":"msg_1","content":[]}}

                    event: content_block_delta
                    data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}

                    event: message_stop
                    data: {"type":"message_stop"}

                    """);
        }
    }

    @Nested
    class Gemini {

        @Test
        void normalResponseIsNotAFailure() {
            noFailure("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}],\"role\":\"model\"},"
                    + "\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"totalTokenCount\":4}}");
        }

        @Test
        void errorObjectIsAFailureWithNumericCode() {
            SemanticResult.Failure failure =
                    failure("{\"error\":{\"code\":500,\"message\":\"Internal error encountered.\","
                            + "\"status\":\"INTERNAL\"}}");
            assertThat(failure.message()).isEqualTo("Internal error encountered.");
            assertThat(failure.errorCode()).isEqualTo("500");
            assertThat(failure.errorType()).isNull();
        }

        @Test
        void errorElementInStreamedArrayIsAFailure() {
            SemanticResult.Failure failure = failure(
                    "[{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}]},"
                            + "{\"error\":{\"code\":503,\"message\":\"The model is overloaded.\",\"status\":\"UNAVAILABLE\"}}]");
            assertThat(failure.message()).isEqualTo("The model is overloaded.");
        }

        @Test
        void blockedPromptIsNotAFailure() {
            noFailure("{\"promptFeedback\":{\"blockReason\":\"SAFETY\",\"safetyRatings\":"
                    + "[{\"category\":\"HARM_CATEGORY_HARASSMENT\",\"probability\":\"HIGH\"}]}}");
        }

        @Test
        void normalSseStreamIsNotAFailure() {
            noFailure(
                    "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}]}\n\n"
                            + "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"!\"}]},\"finishReason\":\"STOP\"}]}\n\n");
        }
    }

    @Nested
    class RelayEnvelopes {

        @Test
        void errorStringIsAFailure() {
            assertThat(failure("{\"error\":\"upstream channel unavailable\"}").message())
                    .isEqualTo("upstream channel unavailable");
        }

        @Test
        void errorTrueUsesTopLevelMessage() {
            assertThat(failure("{\"error\":true,\"message\":\"渠道不可用\"}").message())
                    .isEqualTo("渠道不可用");
        }

        @Test
        void objectErrorIsAFailure() {
            SemanticResult.Failure failure = failure(
                    "{\"object\":\"error\",\"message\":\"model not loaded\",\"type\":\"BadRequestError\",\"code\":400}");
            assertThat(failure.message()).isEqualTo("model not loaded");
            assertThat(failure.errorCode()).isEqualTo("400");
        }

        @Test
        void successFalseWithoutContentIsAFailure() {
            assertThat(failure("{\"success\":false,\"message\":\"当前分组负载已饱和\"}").message())
                    .isEqualTo("当前分组负载已饱和");
        }

        @Test
        void successFalseWithContentIsNotAFailure() {
            noFailure("{\"success\":false,\"choices\":[{\"message\":{\"content\":\"ok\"}}]}");
        }

        @Test
        void sensitiveWordsEnvelopeIsAFailure() {
            SemanticResult.Failure failure = failure(
                    "{\"error\":{\"code\":\"sensitive_words_detected\",\"message\":\"sensitive words detected\",\"type\":\"new_api_error\"}}");
            assertThat(failure.errorCode()).isEqualTo("sensitive_words_detected");
        }

        @Test
        void errorWithoutMessageFallsBackToCode() {
            assertThat(failure("{\"error\":{\"code\":\"channel_down\"}}").message())
                    .isEqualTo("channel_down");
        }
    }

    @Nested
    class NotFailures {

        @ParameterizedTest(name = "[{index}] {0}")
        @ValueSource(
                strings = {
                    "{\"error\":null,\"choices\":[]}",
                    "{\"error\":{}}",
                    "{\"error\":\"\"}",
                    "{\"error\":\"   \"}",
                    "{\"error\":false}",
                    "{\"success\":true,\"message\":\"ok\"}",
                    "{\"status\":\"completed\"}",
                    "",
                    "   ",
                    "<html><body>Bad Gateway</body></html>",
                    "data: [DONE]\n\n",
                })
        void emptyOrNullErrorsAreNotFailures(String body) {
            noFailure(body);
        }

        @Test
        void nullBodyIsNotAFailure() {
            assertThat(SemanticFailureDetector.detect(null)).isEqualTo(SemanticResult.NO_FAILURE);
        }
    }

    @Nested
    class PreCheck {

        @Test
        void bodyWithoutAnyMarkerIsRejectedWithoutParsing() {
            // Not even valid JSON: only the substring scan can have answered.
            assertThat(SemanticFailureDetector.mayContainFailureMarker("{\"choices\":[{\"delta\":"))
                    .isFalse();
            noFailure("{\"choices\":[{\"delta\":");
        }

        @Test
        void nullValuedErrorKeysAloneAreNoMarker() {
            assertThat(SemanticFailureDetector.mayContainFailureMarker(
                            "{\"status\":\"completed\",\"error\":null,\"x\":{\"error\" :  null}}"))
                    .isFalse();
        }

        @ParameterizedTest(name = "[{index}] {0}")
        @ValueSource(
                strings = {
                    "{\"error\":{\"message\":\"x\"}}",
                    "{\"type\":\"error\"}",
                    "event: error\n",
                    "{\"type\":\"response.failed\"}",
                    "{\"status\":\"failed\"}",
                    "{\"success\":false}",
                    "{\"error\":\"x\"}"
                })
        void everyRuleTriggerIsAMarker(String text) {
            assertThat(SemanticFailureDetector.mayContainFailureMarker(text)).isTrue();
        }
    }

    @Nested
    class FirstChunk {

        @Test
        void errorEventInFirstChunkIsAFailureEvenIfDataIsCut() {
            assertThat(SemanticFailureDetector.firstChunkIsFailure(
                            "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"mess"))
                    .isTrue();
        }

        @Test
        void completeErrorFrameIsAFailure() {
            assertThat(SemanticFailureDetector.firstChunkIsFailure(
                            "data: {\"error\":{\"message\":\"quota exhausted\",\"type\":\"relay_error\"}}\n\n"))
                    .isTrue();
        }

        @Test
        void openingJsonErrorBodyIsAFailure() {
            assertThat(SemanticFailureDetector.firstChunkIsFailure("{\"error\":{\"message\":\"no channel\"}}"))
                    .isTrue();
        }

        @Test
        void ordinaryOpeningFramesAreNotFailures() {
            assertThat(SemanticFailureDetector.firstChunkIsFailure(
                            "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"))
                    .isFalse();
            assertThat(
                            SemanticFailureDetector.firstChunkIsFailure(
                                    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\"}}\n\n"))
                    .isFalse();
            assertThat(
                            SemanticFailureDetector.firstChunkIsFailure(
                                    "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"error\":null}}\n\n"))
                    .isFalse();
        }

        @Test
        void cutDataWithoutErrorEventIsNotJudged() {
            assertThat(SemanticFailureDetector.firstChunkIsFailure("data: {\"error\":{\"mess"))
                    .isFalse();
        }
    }

    @Test
    void dataLinesWithoutBlankSeparatorsAreJudgedOneByOne() {
        SemanticResult.Failure failure = failure("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n"
                + "data: {\"error\":{\"message\":\"late failure\"}}\n");
        assertThat(failure.message()).isEqualTo("late failure");
    }

    @Test
    void crlfFramesAreParsed() {
        assertThat(failure("event: error\r\ndata: {\"error\":{\"message\":\"crlf\"}}\r\n\r\n")
                        .message())
                .isEqualTo("crlf");
    }

    @Test
    void errorEventWithPlainTextDataUsesTheText() {
        assertThat(failure("event: error\ndata: upstream went away\n\n").message())
                .isEqualTo("upstream went away");
    }

    @Test
    void detectJsonJudgesParsedDocuments() throws Exception {
        JsonNode node = Json.MAPPER.readTree("{\"type\":\"error\",\"error\":{\"message\":\"x\"}}");
        assertThat(SemanticFailureDetector.detectJson(node).isFailure()).isTrue();
        assertThat(SemanticFailureDetector.detectJson(Json.MAPPER.readTree("{\"choices\":[]}")))
                .isEqualTo(SemanticResult.NO_FAILURE);
    }

    @Test
    void rawSnippetIsCapped() {
        String body = "{\"error\":{\"message\":\"" + "x".repeat(20_000) + "\"}}";
        SemanticResult.Failure failure = failure(body);
        assertThat(failure.rawSnippet())
                .hasSize(SemanticFailureDetector.SNIPPET_LIMIT + 1)
                .endsWith("…");
    }
}
