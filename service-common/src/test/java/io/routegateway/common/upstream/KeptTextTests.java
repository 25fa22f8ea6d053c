package io.routegateway.common.upstream;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.routegateway.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KeptTextTests {

    @Test
    void aShortStreamIsKeptWholeInLittleMemory() {
        KeptText kept = new KeptText();
        String frame = "data: {\"choices\":[{\"delta\":{\"content\":\"tok \"}}]}\n\n";
        for (int i = 0; i < 22; i++) {
            kept.append(frame.getBytes(StandardCharsets.UTF_8));
        }

        assertThat(kept.text()).isEqualTo(frame.repeat(22));
        // sized for what it holds (about 1.2 KB here), not for the 64 KB head limit
        assertThat(kept.retainedBytes()).isLessThan(4 * frame.length() * 22);
    }

    @Test
    void aLongStreamHoldsAtMostTheHeadAndTheTail() {
        KeptText kept = new KeptText();
        kept.append("data: head\n\n".getBytes(StandardCharsets.UTF_8));
        byte[] frame = ("data: " + "x".repeat(200) + "\n\n").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 20_000; i++) {
            kept.append(Arrays.copyOf(frame, frame.length));
        }
        kept.append("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));

        assertThat(kept.retainedBytes()).isLessThanOrEqualTo(KeptText.HEAD_LIMIT + KeptText.TAIL_LIMIT + frame.length);
        String text = kept.text();
        assertThat(text).startsWith("data: head").endsWith("\n\ndata: [DONE]\n\n");
        // the tail starts on a frame boundary: every frame in it is whole
        assertThat(text.substring(KeptText.HEAD_LIMIT, KeptText.HEAD_LIMIT + 2)).isEqualTo("\n\n");
        String tail = text.substring(KeptText.HEAD_LIMIT + 2);
        assertThat(tail).startsWith("data: x");
        assertThat(tail.split("\n\n")).allSatisfy(f -> assertThat(f).matches("data: (x{200}|\\[DONE])"));
    }

    @Test
    void aLongAnthropicStreamKeepsItsOpeningAndClosingUsageInAFewKilobytes() {
        KeptText kept = new KeptText();
        kept.append(("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\","
                        + "\"usage\":{\"input_tokens\":1234,\"output_tokens\":1}}}\n\n")
                .getBytes(StandardCharsets.UTF_8));
        byte[] delta = ("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                        + "\"delta\":{\"type\":\"text_delta\",\"text\":\"tok \"}}\n\n")
                .getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 5_000; i++) {
            kept.append(Arrays.copyOf(delta, delta.length));
        }
        kept.append(("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":"
                        + "\"end_turn\"},\"usage\":{\"output_tokens\":5000}}\n\nevent: message_stop\n"
                        + "data: {\"type\":\"message_stop\"}\n\n")
                .getBytes(StandardCharsets.UTF_8));

        // 640 KB passed through; what is held is the head and the tail, 40 KB at most
        assertThat(kept.retainedBytes()).isLessThanOrEqualTo(40 * 1024 + delta.length);
        assertThat(TokenUsage.fromBody(kept.text())).isEqualTo(new TokenUsage(1234L, 5000L));
        assertThat(kept.usage()).isEqualTo(new TokenUsage(1234L, 5000L));
    }

    /** OpenAI Responses: the closing frame repeats the whole answer, its usage at its end. */
    static byte[] longResponsesStream(int answerChars, int deltaChars) {
        StringBuilder stream = new StringBuilder("event: response.created\ndata: {\"type\":\"response.created\","
                + "\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"usage\":null}}\n\n");
        String piece = "x".repeat(deltaChars);
        for (int sent = 0; sent < answerChars; sent += deltaChars) {
            stream.append("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                            + "\"delta\":\"")
                    .append(piece)
                    .append("\"}\n\n");
        }
        // the answer quotes a usage object, as text: escaped, it is no usage
        String answer = "x".repeat(answerChars) + " \\\"usage\\\":{\\\"input_tokens\\\":999999}";
        stream.append("event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{"
                        + "\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[{\"type\":\"message\","
                        + "\"content\":[{\"type\":\"output_text\",\"text\":\"")
                .append(answer)
                .append("\"}]}],\"tools\":[],\"usage\":{\"input_tokens\":321,\"input_tokens_details\":"
                        + "{\"cached_tokens\":0},\"output_tokens\":9876,\"total_tokens\":10197},\"user\":null,"
                        + "\"metadata\":{}}}\n\n");
        return stream.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aLongResponsesAnswerKeepsTheUsageAtTheEndOfItsClosingFrame() {
        byte[] stream = longResponsesStream(100_000, 40);
        KeptText kept = keptInChunks(stream, stream.length);

        // the 100 KB closing frame is longer than the tail: only its end is kept, and the text leaves it out
        assertThat(kept.retainedBytes()).isLessThanOrEqualTo(40 * 1024 + 1_000);
        assertThat(TokenUsage.fromBody(kept.text())).isEqualTo(TokenUsage.UNKNOWN);
        assertThat(kept.usage().inputTokens()).isEqualTo(321L);
        assertThat(kept.usage().outputTokens()).isEqualTo(9876L);
        // the closing frame's input_tokens_details says none was read from the cache
        assertThat(kept.usage().cacheReadTokens()).isZero();
    }

    @Test
    void aClosingFrameCutShortOfItsUsageGivesNoUsage() {
        byte[] stream = longResponsesStream(100_000, 40);
        // the client left while the closing frame was still arriving: its usage never came whole
        int cut = new String(stream, StandardCharsets.UTF_8).lastIndexOf("\"usage\":{\"input_tokens\":321") + 20;
        KeptText kept = keptInChunks(stream, cut);

        assertThat(kept.retainedBytes()).isLessThan(cut);
        assertThat(kept.usage()).isEqualTo(TokenUsage.UNKNOWN);
    }

    private static KeptText keptInChunks(byte[] stream, int upTo) {
        KeptText kept = new KeptText();
        for (int at = 0; at < upTo; at += 1_000) {
            kept.append(Arrays.copyOfRange(stream, at, Math.min(upTo, at + 1_000)));
        }
        return kept;
    }

    @Test
    void theCallersArraysAreKeptWithoutCopiesAndTinyChunksAreMergedInTheHead() {
        KeptText kept = new KeptText();
        byte[] frame = "data: {\"x\":1}\n\n".getBytes(StandardCharsets.UTF_8);
        kept.append(frame);
        kept.append(frame);
        assertThat(kept.arrays()).isEqualTo(2);
        assertThat(kept.retainedBytes()).isEqualTo(2 * frame.length);

        // an upstream dribbling one byte at a time keeps a bounded number of arrays, and the same text
        KeptText dribbled = new KeptText();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            byte b = (byte) ('a' + i % 26);
            dribbled.append(new byte[] {b});
            expected.append((char) b);
        }
        // in the head until its limit, then in the tail, merged there too
        assertThat(dribbled.arrays())
                .isLessThanOrEqualTo(KeptText.HEAD_ARRAYS + 10_000 / (KeptText.MERGED - KeptText.TINY) + 1);
        assertThat(dribbled.text()).isEqualTo(expected.toString());
        assertThat(dribbled.retainedBytes()).isEqualTo(10_000);
    }

    @Test
    void aCharacterSplitBetweenTwoChunksIsDecodedWhole() {
        byte[] bytes = "data: {\"content\":\"héllo 世界\"}\n\n".getBytes(StandardCharsets.UTF_8);
        KeptText kept = new KeptText();
        // split inside the two-byte é and inside the three-byte 世
        int e = indexOf(bytes, (byte) 0xC3) + 1;
        int cjk = indexOf(bytes, (byte) 0xE4) + 2;
        kept.append(Arrays.copyOfRange(bytes, 0, e));
        kept.append(Arrays.copyOfRange(bytes, e, cjk));
        kept.append(Arrays.copyOfRange(bytes, cjk, bytes.length));

        assertThat(kept.text()).isEqualTo("data: {\"content\":\"héllo 世界\"}\n\n");
    }

    @Test
    void textPastTheHeadIsKeptInTheTailUnspliced() {
        KeptText kept = new KeptText();
        byte[] big = ("data: " + "y".repeat(KeptText.HEAD_LIMIT) + "\n\n").getBytes(StandardCharsets.UTF_8);
        kept.append(big);
        kept.append("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));

        assertThat(kept.text()).isEqualTo(new String(big, StandardCharsets.UTF_8) + "data: [DONE]\n\n");
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
