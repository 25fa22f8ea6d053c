package io.routegateway.core.forward;

import java.nio.charset.StandardCharsets;

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

class StreamOpeningTests {

    private static boolean hasData(String text) {
        return StreamOpening.hasData(text.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "still open: {0}")
    @ValueSource(
            strings = {
                "",
                ": OPENROUTER PROCESSING\n\n",
                ": keep-alive\n",
                ":\n:\n\r\n",
                "\n\n\n",
                ": ping\r\n\r\n: ping\r\n",
                ": a comment cut before its end",
                ": data: {\"error\":{}} inside a comment is still a comment\n"
            })
    void commentsAndBlankLinesKeepTheWindowOpen(String text) {
        assertThat(hasData(text)).isFalse();
    }

    @ParameterizedTest(name = "data begun: {0}")
    @ValueSource(
            strings = {
                "data: {\"choices\":[]}\n\n",
                ": keep-alive\n\ndata: {\"error\":{\"message\":\"Overloaded\"}}\n\n",
                ": keep-alive\nevent: error\n",
                "event: message_start\n",
                "[{\"candidates\":[]}",
                "{\"error\":{}}",
                "d",
                ":\rd"
            })
    void anyOtherLineEndsTheWindow(String text) {
        assertThat(hasData(text)).isTrue();
    }

    @Test
    void aCommentSplitAcrossChunksIsStillAComment() {
        byte[] bytes = ": keep-alive\n\n: keep-alive\n".getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            StreamOpening state = StreamOpening.start().feed(bytes, 0, cut).feed(bytes, cut, bytes.length - cut);
            assertThat(state.dataBegun()).as("cut at %d", cut).isFalse();
        }
    }

    @Test
    void dataStaysBegun() {
        byte[] data = "data: x\n".getBytes(StandardCharsets.UTF_8);
        byte[] comment = ": later comment\n".getBytes(StandardCharsets.UTF_8);
        StreamOpening begun = StreamOpening.start().feed(data, 0, data.length);
        assertThat(begun.feed(comment, 0, comment.length).dataBegun()).isTrue();
    }

    @Test
    void aScanReadsOnlyItsRange() {
        byte[] bytes = "data: x\n: c\n".getBytes(StandardCharsets.UTF_8);
        assertThat(StreamOpening.start().feed(bytes, 8, 4).dataBegun()).isFalse();
        assertThat(StreamOpening.start().feed(bytes, 0, 1).dataBegun()).isTrue();
    }

    @Property
    void anySplitGivesTheWholeTextsAnswer(
            @ForAll("openings") String text, @ForAll @IntRange(min = 0, max = 200) int split) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int at = Math.min(split, bytes.length);
        boolean whole = StreamOpening.hasData(bytes);
        assertThat(StreamOpening.start()
                        .feed(bytes, 0, at)
                        .feed(bytes, at, bytes.length - at)
                        .dataBegun())
                .isEqualTo(whole);
        assertThat(whole).isEqualTo(referenceHasData(text));
    }

    @Provide
    Arbitrary<String> openings() {
        return Arbitraries.of(": keep-alive", ":", "\n", "\r\n", "\r", "data: x", "event: e", " ", "你", "x")
                .list()
                .ofMaxSize(12)
                .map(list -> String.join("", list));
    }

    /** Reference: split into lines at CR, LF or CRLF; data has begun when a non-empty line does not start with ':'. */
    private static boolean referenceHasData(String text) {
        for (String line : text.split("\r\n|\r|\n", -1)) {
            if (!line.isEmpty() && line.charAt(0) != ':') {
                return true;
            }
        }
        return false;
    }
}
