package io.routegateway.common.upstream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.routegateway.core.usage.TokenUsage;

/**
 * The part of a passed-through stream kept for classification and usage: its head (where failure
 * envelopes and Anthropic's input-token count sit) and its tail (where the terminal frame and the
 * final usage sit), bounded so a long generation costs constant memory: at most {@link
 * #HEAD_LIMIT} + {@link #TAIL_LIMIT} bytes plus the last chunk. Kept as the arrays that arrived
 * (the caller's copy, never copied again; only the chunk that crosses the head's limit is split, and
 * tiny chunks are merged so a dribbling upstream does not keep an array per byte) and decoded only
 * when the text is asked for (once per stream), so a frame-sized chunk costs no copy and no decoding
 * here, and a short stream of small frames keeps just its frames.
 */
final class KeptText {

    /**
     * The opening frames: a failure envelope, Anthropic's {@code message_start} (its input tokens),
     * OpenAI's {@code response.created}. A larger head only held more of a long answer's middle, in
     * every concurrent stream (at 64 KB, 1,000 streams of 400 frames held 72 MB of live heap).
     */
    static final int HEAD_LIMIT = 8 * 1024;
    /** The closing frames: the terminal marker, the final usage, a failure that ended the stream. */
    static final int TAIL_LIMIT = 32 * 1024;
    /** Head arrays before they are merged into one: bounds the per-array overhead of tiny chunks. */
    static final int HEAD_ARRAYS = 128;
    /** Tail chunks shorter than this are merged into the tail's last array... */
    static final int TINY = 64;
    /** ...while that array stays within this size. */
    static final int MERGED = 1024;

    private final List<byte[]> head = new ArrayList<>();
    private int headLength;
    private final ArrayDeque<byte[]> tail = new ArrayDeque<>();
    private int tailLength;
    private boolean skipped;

    void append(String chunk) {
        append(chunk.getBytes(StandardCharsets.UTF_8));
    }

    /** Keeps {@code chunk}; the array is kept as it is, so the caller must not change it afterwards. */
    void append(byte[] chunk) {
        if (chunk.length == 0) {
            return;
        }
        if (headLength < HEAD_LIMIT && tail.isEmpty()) {
            int taken = Math.min(HEAD_LIMIT - headLength, chunk.length);
            if (head.size() == HEAD_ARRAYS) {
                byte[] merged = new byte[headLength];
                join(head, merged, 0);
                head.clear();
                head.add(merged);
            }
            headLength += taken;
            if (taken == chunk.length) {
                head.add(chunk);
                return;
            }
            head.add(Arrays.copyOf(chunk, taken));
            chunk = Arrays.copyOfRange(chunk, taken, chunk.length);
        }
        byte[] last = tail.peekLast();
        if (chunk.length < TINY && last != null && last.length + chunk.length <= MERGED) {
            // an upstream dribbling bytes would otherwise keep an array (and its overhead) per byte
            byte[] merged = Arrays.copyOf(last, last.length + chunk.length);
            System.arraycopy(chunk, 0, merged, last.length, chunk.length);
            tail.pollLast();
            tail.addLast(merged);
        } else {
            tail.addLast(chunk);
        }
        tailLength += chunk.length;
        while (tailLength - tail.peekFirst().length >= TAIL_LIMIT) {
            tailLength -= tail.removeFirst().length;
            skipped = true;
        }
    }

    boolean isEmpty() {
        return headLength == 0;
    }

    /** Arrays held now (head and tail). */
    int arrays() {
        return head.size() + tail.size();
    }

    /** Bytes kept now (head and tail), for the memory a stream holds. */
    int retainedBytes() {
        return headLength + tailLength;
    }

    /**
     * Head and tail as UTF-8 text; when something between them was dropped, the tail starts at its
     * first frame boundary so no frame is spliced from two places.
     */
    String text() {
        if (tail.isEmpty() || !skipped) {
            return whole();
        }
        Split split = split();
        return split.head() + "\n\n" + split.alignedTail();
    }

    /**
     * The usage the kept frames carry, in stream order: the head's frames, then the end of the frame
     * the tail starts inside (its beginning was dropped, {@link #text()} leaves it out; OpenAI
     * Responses' {@code response.completed} repeats the whole answer, so a long answer's usage is
     * there), then the tail's whole frames.
     */
    TokenUsage usage() {
        if (tail.isEmpty() || !skipped) {
            return TokenUsage.fromBody(whole());
        }
        Split split = split();
        return TokenUsage.fromBody(split.head())
                .then(TokenUsage.fromFrameEnd(split.cutFrame()))
                .then(TokenUsage.fromBody(split.alignedTail()));
    }

    /** Nothing dropped: head and tail are one run of bytes, decoded at once. */
    private String whole() {
        byte[] all = new byte[headLength + tailLength];
        int at = join(head, all, 0);
        join(tail, all, at);
        return new String(all, StandardCharsets.UTF_8);
    }

    /**
     * @param cutFrame the tail up to its first frame boundary: the end of a frame whose beginning was dropped
     * @param alignedTail the tail's whole frames after that boundary
     */
    private record Split(String head, String cutFrame, String alignedTail) {}

    private Split split() {
        byte[] headBytes = new byte[headLength];
        join(head, headBytes, 0);
        byte[] rest = new byte[tailLength];
        join(tail, rest, 0);
        int boundary = frameBoundary(rest);
        if (boundary < 0) {
            return new Split(
                    new String(headBytes, StandardCharsets.UTF_8), new String(rest, StandardCharsets.UTF_8), "");
        }
        return new Split(
                new String(headBytes, StandardCharsets.UTF_8),
                new String(rest, 0, boundary, StandardCharsets.UTF_8),
                new String(rest, boundary + 2, rest.length - boundary - 2, StandardCharsets.UTF_8));
    }

    private static int join(Iterable<byte[]> chunks, byte[] into, int at) {
        for (byte[] chunk : chunks) {
            System.arraycopy(chunk, 0, into, at, chunk.length);
            at += chunk.length;
        }
        return at;
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
