package io.routegateway.common.upstream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The part of a passed-through stream kept for classification and usage: its head (where failure
 * envelopes and Anthropic's input-token count sit) and its tail (where the terminal frame and the
 * final usage sit), bounded so a long generation costs constant memory: at most {@link
 * #HEAD_LIMIT} + {@link #TAIL_LIMIT} bytes plus the last chunk. Kept as the bytes that arrived and
 * decoded only when the text is asked for (once per stream), so a chunk costs one copy and no
 * decoding; the head grows with what it holds, so a short stream of small frames keeps a few KB.
 */
final class KeptText {

    static final int HEAD_LIMIT = 64 * 1024;
    static final int TAIL_LIMIT = 32 * 1024;
    private static final byte[] EMPTY = new byte[0];

    private byte[] head = EMPTY;
    private int headLength;
    private final ArrayDeque<byte[]> tail = new ArrayDeque<>();
    private int tailLength;
    private boolean skipped;

    void append(String chunk) {
        append(chunk.getBytes(StandardCharsets.UTF_8));
    }

    /** Keeps {@code chunk}; the array is kept as it is in the tail, so the caller must not reuse it. */
    void append(byte[] chunk) {
        if (chunk.length == 0) {
            return;
        }
        if (headLength < HEAD_LIMIT && tail.isEmpty()) {
            int room = HEAD_LIMIT - headLength;
            int taken = Math.min(room, chunk.length);
            if (headLength + taken > head.length) {
                head = Arrays.copyOf(head, Math.min(HEAD_LIMIT, Math.max(headLength + taken, head.length * 2)));
            }
            System.arraycopy(chunk, 0, head, headLength, taken);
            headLength += taken;
            if (taken == chunk.length) {
                return;
            }
            chunk = Arrays.copyOfRange(chunk, taken, chunk.length);
        }
        tail.addLast(chunk);
        tailLength += chunk.length;
        while (tailLength - tail.peekFirst().length >= TAIL_LIMIT) {
            tailLength -= tail.removeFirst().length;
            skipped = true;
        }
    }

    boolean isEmpty() {
        return headLength == 0;
    }

    /** Bytes kept now (head capacity and tail), for the memory a stream holds. */
    int retainedBytes() {
        return head.length + tailLength;
    }

    /**
     * Head and tail as UTF-8 text; when something between them was dropped, the tail starts at its
     * first frame boundary so no frame is spliced from two places.
     */
    String text() {
        if (tail.isEmpty()) {
            return new String(head, 0, headLength, StandardCharsets.UTF_8);
        }
        byte[] rest = new byte[tailLength];
        int at = 0;
        for (byte[] chunk : tail) {
            System.arraycopy(chunk, 0, rest, at, chunk.length);
            at += chunk.length;
        }
        if (!skipped) {
            byte[] all = Arrays.copyOf(head, headLength + rest.length);
            System.arraycopy(rest, 0, all, headLength, rest.length);
            return new String(all, StandardCharsets.UTF_8);
        }
        int boundary = frameBoundary(rest);
        String alignedTail =
                boundary < 0 ? "" : new String(rest, boundary + 2, rest.length - boundary - 2, StandardCharsets.UTF_8);
        return new String(head, 0, headLength, StandardCharsets.UTF_8) + "\n\n" + alignedTail;
    }

    private static int frameBoundary(byte[] bytes) {
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\n' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
