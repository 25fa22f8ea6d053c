package io.routegateway.core.bridge;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SseParserTests {

    private static final String STREAM = "event: message_start\r\ndata: {\"a\":\"wörld 👋\"}\r\n\r\n"
            + ": keepalive\n\n"
            + "data: line one\ndata: line two\n\n"
            + "data:no-space\n\n";

    private static final List<SseEvent> EXPECTED = List.of(
            new SseEvent("message_start", "{\"a\":\"wörld 👋\"}"),
            SseEvent.data("line one\nline two"),
            SseEvent.data("no-space"));

    @Test
    void everySplitPointGivesTheSameEvents() {
        byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
        for (int split = 0; split <= bytes.length; split++) {
            SseParser parser = new SseParser();
            List<SseEvent> events = new ArrayList<>(parser.feed(bytes, 0, split));
            events.addAll(parser.feed(bytes, split, bytes.length - split));
            events.addAll(parser.finish());
            assertThat(events).as("split at %d", split).isEqualTo(EXPECTED);
        }
    }

    @Test
    void byteByByteFeedingSplitsMultiByteCharactersAndStillDecodesThem() {
        byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
        SseParser parser = new SseParser();
        List<SseEvent> events = new ArrayList<>();
        for (int i = 0; i < bytes.length; i++) {
            events.addAll(parser.feed(bytes, i, 1));
        }
        assertThat(events).isEqualTo(EXPECTED);
    }

    @Test
    void aLastEventMissingOnlyItsBlankLineIsDispatchedAtTheEnd() {
        SseParser parser = new SseParser();
        assertThat(parser.feed("data: [DONE]\n")).isEmpty();
        assertThat(parser.finish()).containsExactly(SseEvent.data("[DONE]"));
    }

    @Test
    void aLineCutOffMidWayIsDroppedWithItsEvent() {
        SseParser parser = new SseParser();
        assertThat(parser.feed("data: {\"ok\":1}\n\ndata: {\"cut")).containsExactly(SseEvent.data("{\"ok\":1}"));
        assertThat(parser.finish()).isEmpty();
    }

    @Test
    void aHugeLineIsRefused() {
        SseParser parser = new SseParser();
        byte[] chunk = new byte[1024 * 1024];
        java.util.Arrays.fill(chunk, (byte) 'x');
        assertThatThrownBy(() -> {
                    for (int i = 0; i <= SseParser.MAX_LINE_BYTES / chunk.length; i++) {
                        parser.feed(chunk);
                    }
                })
                .isInstanceOf(BridgeException.class)
                .hasMessageContaining("SSE line longer than");
    }

    @Test
    void anEventOfShortLinesThatNeverEndsIsRefusedAtTheEventCap() {
        SseParser parser = new SseParser();
        // 1 MB lines well under the line cap, and never the blank line that would dispatch them
        String line = "data: " + "y".repeat(1024 * 1024 - 7) + "\n";
        byte[] chunk = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int fed = 0;
        try {
            while (fed <= SseParser.MAX_EVENT_CHARS / (chunk.length - 7) + 1) {
                assertThat(parser.feed(chunk)).isEmpty();
                fed++;
            }
        } catch (BridgeException refused) {
            assertThat(refused).hasMessageContaining("SSE event longer than");
            assertThat(fed).isBetween(15, 16);
            return;
        }
        throw new AssertionError("an event of " + fed + " MB was held");
    }

    @Test
    void anEventJustUnderTheCapIsDispatched() {
        SseParser parser = new SseParser();
        String half = "z".repeat(SseParser.MAX_EVENT_CHARS / 2 - 1);

        List<SseEvent> events = parser.feed("data: " + half + "\ndata: " + half + "\n\n");

        assertThat(events).hasSize(1);
        assertThat(events.get(0).data()).hasSize(SseParser.MAX_EVENT_CHARS - 1);
    }

    @Test
    void wireFormSplitsMultiLineDataAndRoundTrips() {
        SseEvent event = new SseEvent("x", "a\nb");
        assertThat(event.wire()).isEqualTo("event: x\ndata: a\ndata: b\n\n");
        SseParser parser = new SseParser();
        assertThat(parser.feed(event.bytes())).containsExactly(event);
    }
}
