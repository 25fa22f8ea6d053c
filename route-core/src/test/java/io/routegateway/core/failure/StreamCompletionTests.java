package io.routegateway.core.failure;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class StreamCompletionTests {

    @Test
    void responsesCompletedIsTerminal() {
        assertThat(StreamCompletion.hasTerminalMarker(
                        "event: response.completed\ndata: {\"type\":\"response.completed\"}\n\n"))
                .isTrue();
    }

    @Test
    void doneIsTerminal() {
        assertThat(StreamCompletion.hasTerminalMarker("data: {\"choices\":[]}\n\ndata: [DONE]\n\n"))
                .isTrue();
    }

    @Test
    void messageStopIsTerminal() {
        assertThat(StreamCompletion.hasTerminalMarker("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"))
                .isTrue();
    }

    @ParameterizedTest(name = "finish_reason stop: {0}")
    @ValueSource(
            strings = {
                "{\"finish_reason\":\"stop\"}",
                "{\"finish_reason\": \"stop\"}",
                "{\"finish_reason\" :\"stop\"}",
                "{\"finish_reason\"  :  \"stop\"}",
                "{\"finish_reason\"\t:\n\"stop\"}"
            })
    void finishReasonStopIsTerminalWithAnySpacing(String frame) {
        assertThat(StreamCompletion.hasTerminalMarker("data: " + frame + "\n\n"))
                .isTrue();
    }

    @ParameterizedTest(name = "finishReason STOP: {0}")
    @ValueSource(
            strings = {"{\"finishReason\":\"STOP\"}", "{\"finishReason\": \"STOP\"}", "{\"finishReason\" : \"STOP\"}"})
    void geminiFinishReasonStopIsTerminalWithAnySpacing(String frame) {
        assertThat(StreamCompletion.hasTerminalMarker("data: " + frame + "\n\n"))
                .isTrue();
    }

    /**
     * Every protocol's own end under a finish reason other than "stop": the stream completed; the
     * client's limit or a safety filter is not a truncation.
     */
    @ParameterizedTest(name = "terminal under another finish reason: {0}")
    @ValueSource(
            strings = {
                "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n",
                "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
                "data: {\"choices\":[{\"delta\":{},\"finish_reason\" : \"content_filter\"}]}\n\n",
                "data: {\"candidates\":[{\"finishReason\":\"MAX_TOKENS\"}]}\n\n",
                "data: {\"candidates\":[{\"finishReason\": \"SAFETY\"}]}\n\n",
                "data: {\"candidates\":[{\"finishReason\":\"RECITATION\"}]}\n\n",
                "data: {\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}\n\n",
                "event: response.incomplete\ndata: {\"type\":\"response.incomplete\"}\n\n"
            })
    void otherFinishReasonsAreTerminal(String frame) {
        assertThat(StreamCompletion.hasTerminalMarker(frame)).isTrue();
    }

    @ParameterizedTest(name = "not terminal: {0}")
    @ValueSource(
            strings = {
                "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n",
                "data: {\"finish_reason\":null}\n\n",
                "data: {\"finish_reason\": null}\n\n",
                "data: {\"finish_reason\":\"\"}\n\n",
                "data: {\"finishReason\":null}\n\n",
                "data: {\"finish_reason\":\n\n",
                "data: {\"blockReason\":\"\"}\n\n",
                "data: {\"Finish_reason\":\"stop\"}\n\n",
                "data: {\"finish_reason_x\":\"stop\"}\n\n",
                // a generated text that spells a key: its quotes are escaped, so no key matches
                "data: {\"choices\":[{\"delta\":{\"content\":\"\\\"finish_reason\\\":\\\"stop\\\"\"}}]}\n\n",
                "data: {\"choices\":[{\"delta\":{\"content\":\"\\\"finishReason\\\": \\\"STOP\\\"\"}}]}\n\n",
                "event: response.in_progress\n\n",
                "event: response.output_text.delta\n\n",
                "event: message_delta\n\n",
                "data: [DONE\n\n",
                ""
            })
    void otherFramesAreNotTerminal(String text) {
        assertThat(StreamCompletion.hasTerminalMarker(text)).isFalse();
    }

    @ParameterizedTest(name = "split marker: {0}")
    @ValueSource(
            strings = {
                "event: response.completed\n",
                "data: [DONE]\n\n",
                "event: message_stop\n",
                "data: {\"finish_reason\" : \"stop\"}\n",
                "data: {\"finishReason\": \"STOP\"}\n"
            })
    void markerSplitAtEveryPositionIsFound(String text) {
        for (int cut = 1; cut < text.length(); cut++) {
            StreamCompletion.Scan scan =
                    StreamCompletion.scan().feed(text.substring(0, cut)).feed(text.substring(cut));
            assertThat(scan.completed()).as("cut at %d", cut).isTrue();
        }
    }

    @Test
    void markerFedOneCharacterAtATimeIsFound() {
        StreamCompletion.Scan scan = StreamCompletion.scan();
        for (char c : "data: {\"finish_reason\":  \"stop\"}".toCharArray()) {
            scan = scan.feed(String.valueOf(c));
        }
        assertThat(scan.completed()).isTrue();
    }

    @Test
    void scanIsImmutable() {
        StreamCompletion.Scan start = StreamCompletion.scan();
        StreamCompletion.Scan half = start.feed("data: [DO");
        assertThat(half.feed("NE]").completed()).isTrue();
        assertThat(half.completed()).isFalse();
        assertThat(start.feed("NE]").completed()).isFalse();
    }

    @Test
    void completedStaysCompleted() {
        assertThat(StreamCompletion.scan().feed("[DONE]").feed("more bytes").completed())
                .isTrue();
    }

    @Test
    void bytesAndCharactersGiveTheSameVerdict() {
        String text = "data: {\"choices\":[{\"delta\":{\"content\":\"你好 finish_reason\"}}]}\n\n"
                + "data: {\"choices\":[{\"finish_reason\":\"stop\"}]}\n\n";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            StreamCompletion.Scan scan =
                    StreamCompletion.scan().feed(bytes, 0, cut).feed(bytes, cut, bytes.length - cut);
            assertThat(scan.completed()).isTrue();
        }
        String truncated = text.substring(0, text.indexOf("\"stop\""));
        byte[] truncatedBytes = truncated.getBytes(StandardCharsets.UTF_8);
        assertThat(StreamCompletion.scan()
                        .feed(truncatedBytes, 0, truncatedBytes.length)
                        .completed())
                .isFalse();
        assertThat(StreamCompletion.hasTerminalMarker(truncated)).isFalse();
    }

    @Test
    void theMarkersCompileToASmallAutomaton() {
        // one state per distinct set of part-way matches, far below the guard
        assertThat(StreamCompletion.automatonStates()).isBetween(2, StreamCompletion.MAX_STATES - 1);
    }

    @Test
    void aScanFedFromAnOffsetReadsOnlyItsRange() {
        byte[] bytes = "[DONE]data: {}[DONE]".getBytes(StandardCharsets.UTF_8);
        assertThat(StreamCompletion.scan().feed(bytes, 6, 8).completed()).isFalse();
        assertThat(StreamCompletion.scan().feed(bytes, 14, 6).completed()).isTrue();
        assertThat(StreamCompletion.scan().feed(bytes, 1, 5).completed()).isFalse();
    }

    @Test
    void nonLatinCharactersBreakAPartialMatchLikeAnyOther() {
        assertThat(StreamCompletion.hasTerminalMarker("[DO\u4f60NE]")).isFalse();
        assertThat(StreamCompletion.hasTerminalMarker("\u4f60[DONE]\u4f60")).isTrue();
        assertThat(StreamCompletion.hasTerminalMarker("\"finish_reason\":\u00a0\"stop\""))
                .isFalse();
    }

    @Test
    void disconnectedMessageIsTheSpecLabel() {
        assertThat(StreamCompletion.DISCONNECTED_MESSAGE).isEqualTo("stream_disconnected_before_completion");
    }

    @Property
    void incrementalAndWholeVerdictsAgreeForAnySplit(
            @ForAll("streams") String text,
            @ForAll @IntRange(min = 0, max = 400) int a,
            @ForAll @IntRange(min = 0, max = 400) int b) {
        int first = Math.min(a, text.length());
        int second = Math.max(first, Math.min(b, text.length()));
        StreamCompletion.Scan scan = StreamCompletion.scan()
                .feed(text.substring(0, first))
                .feed(text.substring(first, second))
                .feed(text.substring(second));
        assertThat(scan.completed()).isEqualTo(StreamCompletion.hasTerminalMarker(text));
        assertThat(scan.completed()).isEqualTo(naiveHasMarker(text));
    }

    @Provide
    Arbitrary<String> streams() {
        List<String> pieces = List.of(
                "data: ",
                "{\"choices\":[]}",
                "\n\n",
                "[DONE]",
                "[DON",
                "E]",
                "message_",
                "stop",
                "response.",
                "completed",
                "\"finish_reason\"",
                "\"finishReason\"",
                "\"blockReason\"",
                "incomplete",
                ":",
                " ",
                "\t",
                "null",
                "\"\"",
                "\"stop\"",
                "\"STOP\"",
                "\"MAX_TOKENS\"",
                "x",
                "你");
        return Arbitraries.of(pieces).list().ofMaxSize(30).map(list -> String.join("", list));
    }

    /** Reference implementation: the spec's markers as regular expressions over the whole text. */
    private static boolean naiveHasMarker(String text) {
        return text.contains("response.completed")
                || text.contains("response.incomplete")
                || text.contains("[DONE]")
                || text.contains("message_stop")
                || text.matches("(?s).*\"finish_reason\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\"[^\"].*")
                || text.matches("(?s).*\"finishReason\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\"[^\"].*")
                || text.matches("(?s).*\"blockReason\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\"[^\"].*");
    }
    /** The markers as a regular expression: what the scan (and its skipping of resting characters) must agree with. */
    private static final Pattern REFERENCE =
            Pattern.compile("response\\.completed|response\\.incomplete|\\[DONE]|message_stop"
                    + "|\"(?:finish_reason|finishReason|blockReason)\"[ \\t\\n\\r]*:[ \\t\\n\\r]*\"[^\"]");

    @Property
    void theScanAgreesWithTheMarkersAsARegularExpression(
            @ForAll("markerFragments") String text, @ForAll @IntRange(min = 0, max = 200) int split) {
        boolean expected = REFERENCE.matcher(text).find();
        assertThat(StreamCompletion.hasTerminalMarker(text)).isEqualTo(expected);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int at = Math.min(split, bytes.length);
        StreamCompletion.Scan scan = StreamCompletion.scan().feed(bytes, 0, at).feed(bytes, at, bytes.length - at);
        assertThat(scan.completed()).isEqualTo(expected);
    }

    @Provide
    Arbitrary<String> markerFragments() {
        return Arbitraries.of(
                        "\"finish_reason\"",
                        "\"finishReason\"",
                        "\"blockReason\"",
                        "\"stop\"",
                        "null",
                        ".incomplete",
                        "incomplete",
                        "\"STOP\"",
                        ":",
                        " ",
                        "\t",
                        "\n",
                        "\r",
                        "\"",
                        "response.",
                        "response",
                        ".completed",
                        "completed",
                        "[DONE",
                        "[",
                        "DONE]",
                        "]",
                        "message_",
                        "stop",
                        "m",
                        "r",
                        "data: ",
                        "{\"choices\":[",
                        "é",
                        "x")
                .list()
                .ofMaxSize(24)
                .map(parts -> String.join("", parts));
    }
}
