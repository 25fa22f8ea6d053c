package io.routegateway.core.forward;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;

/**
 * Usage on OpenAI Chat Completions streams. The upstream is always asked for it ({@code
 * stream_options.include_usage: true}, set by {@code UpstreamRequests.forward} on every OpenAI Chat
 * stream request, native or bridged), so that a stream's tokens are settled; a client that did not
 * ask for it does not get the extra usage-only frame (the chunk whose {@code choices} is empty and
 * whose {@code usage} is set), which {@link Filter} removes from the bytes on their way to the
 * client. Usage is settled from the upstream's own bytes, frame included.
 *
 * <p>Decided once per stream ({@link #hidesUsageFrame}); per chunk the filter finds the last frame
 * end and looks for the bytes of an empty {@code choices} array, passing a chunk without one through
 * as it is and parsing only a frame that has it. The other chunks' {@code "usage": null} field, which
 * OpenAI adds when usage was asked for, is left as it is (OpenAI's SDKs read it as absent).
 */
public final class ChatStreamUsage {

    private ChatStreamUsage() {}

    /** Whether the client asked for usage in its stream ({@code stream_options.include_usage: true}). */
    public static boolean clientAsked(JsonNode body) {
        return body != null && body.path("stream_options").path("include_usage").asBoolean(false);
    }

    /**
     * Whether a native OpenAI Chat stream must have its usage frame removed: the client asked for a
     * stream and not for usage.
     */
    public static boolean hidesUsageFrame(JsonNode body, boolean clientStream) {
        return clientStream && !clientAsked(body);
    }

    /** The whole text of a buffered stream answer without its usage-only frame. */
    public static byte[] withoutUsageFrame(byte[] stream) {
        Filter filter = new Filter();
        byte[] head = filter.feed(stream);
        byte[] tail = filter.finish();
        if (tail.length == 0) {
            return head;
        }
        byte[] all = new byte[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    /**
     * Removes usage-only frames from one stream's chunks as they pass. A chunk's complete frames go
     * out at once (the chunk itself, unchanged, when none holds an empty {@code choices}); the bytes
     * of an unfinished last frame are held until its blank line (an SSE client acts on a frame only
     * then), up to {@link #MAX_HELD}. Not thread-safe: one per stream.
     */
    public static final class Filter {

        private static final byte[] EMPTY = new byte[0];
        private static final byte[] EMPTY_CHOICES = "\"choices\":[]".getBytes();

        /** Longest unfinished frame held back; a usage frame is a few hundred bytes. */
        static final int MAX_HELD = 64 * 1024;

        /** Bytes of the unfinished last frame, held until its blank line. */
        private byte[] held = EMPTY;

        /**
         * The bytes to write to the client now: {@code chunk} itself (the same array) when nothing was
         * held and it ends on a frame boundary without a usage frame, so the caller may send its
         * original buffer.
         */
        public byte[] feed(byte[] chunk) {
            byte[] text = concat(held, chunk);
            int end = lastFrameEnd(text);
            if (end < 0) {
                if (text.length > MAX_HELD) {
                    // far larger than a usage frame: not one, out it goes
                    held = EMPTY;
                    return text;
                }
                held = text;
                return EMPTY;
            }
            held = end == text.length ? EMPTY : Arrays.copyOfRange(text, end, text.length);
            if (indexOf(text, EMPTY_CHOICES, 0, end) < 0) {
                // the common case: no frame here can be the usage frame
                return end == text.length ? text : Arrays.copyOfRange(text, 0, end);
            }
            return dropUsageFrames(text, end);
        }

        /** What is still held when the upstream stream ends (an unterminated last frame): sent as it is. */
        public byte[] finish() {
            byte[] rest = held;
            held = EMPTY;
            if (rest.length > 0 && isUsageFrame(rest, 0, rest.length)) {
                return EMPTY;
            }
            return rest;
        }

        /** The frames of {@code text[0, end)} without the usage-only ones. */
        private static byte[] dropUsageFrames(byte[] text, int end) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(end);
            int start = 0;
            while (start < end) {
                int frameEnd = nextFrameEnd(text, start, end);
                if (!(indexOf(text, EMPTY_CHOICES, start, frameEnd) >= 0 && isUsageFrame(text, start, frameEnd))) {
                    out.write(text, start, frameEnd - start);
                }
                start = frameEnd;
            }
            return out.toByteArray();
        }

        /** Whether the frame's data is a chunk with an empty {@code choices} and a {@code usage} object. */
        static boolean isUsageFrame(byte[] text, int from, int to) {
            int data = indexOf(text, "data:".getBytes(), from, to);
            if (data < 0) {
                return false;
            }
            try {
                JsonNode node = Json.MAPPER.readTree(text, data + 5, to - data - 5);
                return node != null
                        && node.isObject()
                        && node.path("choices").isArray()
                        && node.path("choices").isEmpty()
                        && node.path("usage").isObject();
            } catch (IOException e) {
                return false;
            }
        }

        /** The end (after its blank line) of the last complete frame in {@code text}, or -1. */
        private static int lastFrameEnd(byte[] text) {
            for (int i = text.length - 1; i >= 1; i--) {
                if (text[i] == '\n'
                        && (text[i - 1] == '\n' || (text[i - 1] == '\r' && i >= 2 && text[i - 2] == '\n'))) {
                    return i + 1;
                }
            }
            return -1;
        }

        /** The end of the frame starting at {@code from}, at most {@code limit}. */
        private static int nextFrameEnd(byte[] text, int from, int limit) {
            for (int i = from + 1; i < limit; i++) {
                if (text[i] == '\n'
                        && (text[i - 1] == '\n' || (text[i - 1] == '\r' && i >= 2 && text[i - 2] == '\n'))) {
                    return i + 1;
                }
            }
            return limit;
        }

        /**
         * The first occurrence of {@code needle} in {@code text[from, to)}, or -1. Looks for the
         * needle's last byte first: the usage marker runs over every chunk and ends in {@code ]},
         * rare in a frame, where its first byte {@code "} is everywhere in JSON.
         */
        private static int indexOf(byte[] text, byte[] needle, int from, int to) {
            int last = needle.length - 1;
            byte end = needle[last];
            outer:
            for (int i = from + last; i < to; i++) {
                if (text[i] != end) {
                    continue;
                }
                int start = i - last;
                for (int j = 0; j < last; j++) {
                    if (text[start + j] != needle[j]) {
                        continue outer;
                    }
                }
                return start;
            }
            return -1;
        }

        private static byte[] concat(byte[] a, byte[] b) {
            if (a.length == 0) {
                return b;
            }
            if (b.length == 0) {
                return a;
            }
            byte[] all = new byte[a.length + b.length];
            System.arraycopy(a, 0, all, 0, a.length);
            System.arraycopy(b, 0, all, a.length, b.length);
            return all;
        }
    }
}
