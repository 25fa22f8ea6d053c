package io.routegateway.core.secretmask;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamMaskTests {

    private static final String SECRET = "sk-ant-api03-0123456789abcdef";

    private static String stream(String text, int chunkSize) {
        StreamMask mask = new StreamMask(SECRET);
        byte[] all = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < all.length; i += chunkSize) {
            byte[] chunk = new byte[Math.min(chunkSize, all.length - i)];
            System.arraycopy(all, i, chunk, 0, chunk.length);
            out.writeBytes(mask.push(chunk));
        }
        out.writeBytes(mask.finish());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aKeySplitAcrossChunksIsMaskedAtEveryCut() {
        String frames = "data: {\"delta\":{\"text\":\"your key is " + SECRET + "\"}}\n\n"
                + "data: {\"delta\":{\"text\":\"" + SECRET.replace("-", "\\u002d") + "\"}}\n\ndata: [DONE]\n\n";
        String expected = "data: {\"delta\":{\"text\":\"your key is [redacted]\"}}\n\n"
                + "data: {\"delta\":{\"text\":\"[redacted]\"}}\n\ndata: [DONE]\n\n";
        for (int size = 1; size <= frames.length(); size++) {
            assertThat(stream(frames, size)).as("chunks of %d bytes", size).isEqualTo(expected);
        }
    }

    @Test
    void chunksWithoutTheKeyGoOutAsTheyCameAndNothingIsHeldAfterAFrame() {
        StreamMask mask = new StreamMask(SECRET);
        byte[] frame = "data: {\"text\":\"é hello\"}\n\n".getBytes(StandardCharsets.UTF_8);
        assertThat(mask.push(frame)).isSameAs(frame);
        assertThat(mask.finish()).isEmpty();
    }

    @Test
    void aPossibleStartIsHeldOnlyUntilTheNextChunkDecidesIt() {
        StreamMask mask = new StreamMask(SECRET);
        assertThat(new String(mask.push("hello sk-an".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("hello ");
        assertThat(new String(mask.push("chor".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("sk-anchor");
        assertThat(new String(mask.push("x sk-".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("x ");
        assertThat(new String(mask.finish(), StandardCharsets.UTF_8)).isEqualTo("sk-");
    }

    @Test
    void aBase64KeySplitAcrossChunksIsMasked() {
        String encoded = java.util.Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8));
        String out = stream("data: {\"b\":\"" + encoded + "\"}\n\n", 7);
        assertThat(out).contains("[redacted]").doesNotContain(encoded.substring(4, 30));
    }

    @Test
    void aShortSecretMasksNothingAndHoldsNothing() {
        StreamMask mask = new StreamMask("short");
        byte[] chunk = "short".getBytes(StandardCharsets.UTF_8);
        assertThat(mask.push(chunk)).isSameAs(chunk);
    }
}
