package io.routegateway.core.failure;

import java.util.List;

/**
 * SSE terminal-marker detection, shared by the buffered and the streaming path so the two can never
 * reach different verdicts. A stream is complete once any of these has been seen:
 *
 * <ul>
 *   <li>{@code response.completed} (OpenAI Responses)
 *   <li>{@code [DONE]} (OpenAI Chat Completions)
 *   <li>{@code message_stop} (Anthropic Messages)
 *   <li>{@code "finish_reason":"stop"}, any JSON whitespace around the colon (Chat Completions)
 *   <li>{@code "finishReason":"STOP"}, any JSON whitespace around the colon (Gemini)
 * </ul>
 *
 * Markers are matched on the raw text, not on parsed frames, and case-sensitively. A stream that
 * ends without one is truncated: {@link #DISCONNECTED_MESSAGE}.
 *
 * <p>{@link Scan} is incremental: chunks are fed as they arrive and a marker split across chunk
 * boundaries is still found. It keeps no text, only how far each marker has been matched. All
 * markers are ASCII and UTF-8 multi-byte sequences contain no ASCII bytes, so feeding raw bytes or
 * decoded characters gives the same verdict.
 */
public final class StreamCompletion {

    /** The failure message of a stream that ended without a terminal marker. */
    public static final String DISCONNECTED_MESSAGE = "stream_disconnected_before_completion";

    /** Pattern token meaning "any run of JSON whitespace, possibly empty". */
    private static final int WS = -1;

    private static final List<int[]> PATTERNS = List.of(
            literal("response.completed"),
            literal("[DONE]"),
            literal("message_stop"),
            jsonPair("finish_reason", "stop"),
            jsonPair("finishReason", "STOP"));

    private static final int[][] TOKENS = PATTERNS.toArray(new int[0][]);
    private static final long[] WHITESPACE_POSITIONS =
            PATTERNS.stream().mapToLong(StreamCompletion::whitespacePositions).toArray();
    /**
     * The characters a pattern starts with: while no pattern is part-way matched, any other
     * character leaves every state at rest, so it is skipped without stepping the patterns (on SSE
     * text that is most of its bytes).
     */
    private static final boolean[] STARTS = starts();

    private StreamCompletion() {}

    /** Whether the whole text carries a terminal marker: the buffered path's check. */
    public static boolean hasTerminalMarker(CharSequence text) {
        return Scan.START.feed(text).completed();
    }

    /** A fresh scan for the streaming path. */
    public static Scan scan() {
        return Scan.START;
    }

    /**
     * Immutable progress of an incremental scan: each {@code feed} returns the progress after that
     * chunk. Once complete it stays complete.
     */
    public static final class Scan {

        static final Scan START = new Scan(initialStates(), false);

        private final long[] states;
        private final boolean completed;

        private Scan(long[] states, boolean completed) {
            this.states = states;
            this.completed = completed;
        }

        public boolean completed() {
            return completed;
        }

        public Scan feed(CharSequence chunk) {
            if (completed || chunk == null || chunk.length() == 0) {
                return this;
            }
            long[] next = states.clone();
            boolean resting = resting(next);
            for (int i = 0; i < chunk.length(); i++) {
                char c = chunk.charAt(i);
                if (resting && (c >= STARTS.length || !STARTS[c])) {
                    continue;
                }
                if (step(next, c)) {
                    return new Scan(next, true);
                }
                resting = resting(next);
            }
            return new Scan(next, false);
        }

        public Scan feed(byte[] bytes, int offset, int length) {
            if (completed || length == 0) {
                return this;
            }
            long[] next = states.clone();
            boolean resting = resting(next);
            for (int i = offset; i < offset + length; i++) {
                int c = bytes[i] & 0xFF;
                if (resting && !STARTS[c]) {
                    continue;
                }
                if (step(next, c)) {
                    return new Scan(next, true);
                }
                resting = resting(next);
            }
            return new Scan(next, false);
        }

        /** Whether no pattern is part-way matched. */
        private static boolean resting(long[] states) {
            for (long state : states) {
                if (state != 0) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Advances every pattern by one character; true when one of them has fully matched. Only the
         * positions a pattern currently occupies are visited: on ordinary text that is the start
         * position alone, so a byte costs a handful of comparisons whatever the pattern lengths.
         */
        private static boolean step(long[] states, int c) {
            boolean matched = false;
            boolean whitespace = isJsonWhitespace(c);
            for (int p = 0; p < TOKENS.length; p++) {
                int[] tokens = TOKENS[p];
                long next = 0L;
                for (long active = states[p] | 1L; active != 0; active &= active - 1) {
                    int i = Long.numberOfTrailingZeros(active);
                    int token = tokens[i];
                    if (token == WS) {
                        if (whitespace) {
                            next |= 1L << i;
                        }
                    } else if (token == c) {
                        next |= 1L << (i + 1);
                    }
                }
                if (next != 0) {
                    next = closure(WHITESPACE_POSITIONS[p], next);
                    if ((next & (1L << tokens.length)) != 0) {
                        matched = true;
                    }
                }
                states[p] = next;
            }
            return matched;
        }
    }

    private static boolean[] starts() {
        boolean[] starts = new boolean[256];
        for (int[] tokens : TOKENS) {
            if (tokens[0] == WS) {
                throw new IllegalStateException("a pattern may not start with whitespace");
            }
            starts[tokens[0]] = true;
        }
        return starts;
    }

    private static long[] initialStates() {
        return new long[PATTERNS.size()];
    }

    /**
     * A state sitting on a whitespace token may also skip it (the run may be empty); repeated so that
     * consecutive whitespace tokens would be skipped too.
     */
    private static long closure(long whitespacePositions, long states) {
        long next = states | ((states & whitespacePositions) << 1);
        while (next != states) {
            states = next;
            next = states | ((states & whitespacePositions) << 1);
        }
        return states;
    }

    /** Bit i set where pattern token i is {@link #WS}. */
    private static long whitespacePositions(int[] tokens) {
        long positions = 0L;
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i] == WS) {
                positions |= 1L << i;
            }
        }
        return positions;
    }

    private static boolean isJsonWhitespace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static int[] literal(String text) {
        return text.chars().toArray();
    }

    private static int[] jsonPair(String key, String value) {
        String quotedKey = '"' + key + '"';
        String quotedValue = '"' + value + '"';
        int[] tokens = new int[quotedKey.length() + 3 + quotedValue.length()];
        int at = 0;
        for (char c : quotedKey.toCharArray()) {
            tokens[at++] = c;
        }
        tokens[at++] = WS;
        tokens[at++] = ':';
        tokens[at++] = WS;
        for (char c : quotedValue.toCharArray()) {
            tokens[at++] = c;
        }
        return tokens;
    }
}
