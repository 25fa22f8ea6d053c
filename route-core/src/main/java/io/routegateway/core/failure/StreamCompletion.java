package io.routegateway.core.failure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SSE terminal-marker detection, shared by the buffered and the streaming path so the two can never
 * reach different verdicts. A stream is complete once any of these has been seen:
 *
 * <ul>
 *   <li>{@code response.completed} (OpenAI Responses), and {@code response.incomplete}: the
 *       response ended under its own limit ({@code max_output_tokens}, a content filter)
 *   <li>{@code [DONE]} (OpenAI Chat Completions)
 *   <li>{@code message_stop} (Anthropic Messages)
 *   <li>{@code "finish_reason":"…"} with any non-empty string value ({@code stop}, {@code length},
 *       {@code tool_calls}, {@code content_filter}), any JSON whitespace around the colon (Chat
 *       Completions)
 *   <li>{@code "finishReason":"…"} with any non-empty string value ({@code STOP}, {@code
 *       MAX_TOKENS}, {@code SAFETY}, …) (Gemini)
 *   <li>{@code "blockReason":"…"} (Gemini's {@code promptFeedback}: the prompt was refused, nothing
 *       follows)
 * </ul>
 *
 * The spec names five markers, all of the "stop" kind; the others are the same protocols' own ends
 * under another finish reason. A stream that ended there completed: what the client asked for
 * ({@code max_tokens}, content a safety filter refuses) is never evidence about a credential, so it
 * must not count as a truncation (one client could otherwise put a shared model into {@code error}).
 * A {@code null} or empty reason ({@code "finish_reason":null} on every Chat delta) is no end.
 *
 * <p>Markers are matched on the raw text, not on parsed frames, and case-sensitively; a key is
 * matched only with its own quotes, so the escaped quotes of a generated text never form one. A
 * stream that ends without one is truncated: {@link #DISCONNECTED_MESSAGE}.
 *
 * <p>{@link Scan} is incremental: chunks are fed as they arrive and a marker split across chunk
 * boundaries is still found. It keeps no text, only where the markers' automaton stands. All
 * markers are ASCII and UTF-8 multi-byte sequences contain no ASCII bytes, so feeding raw bytes or
 * decoded characters gives the same verdict.
 *
 * <p>The markers are compiled once into a deterministic automaton over character classes (the
 * characters the markers use, JSON whitespace, and everything else), so the streaming path costs
 * one table lookup per byte and allocates nothing per chunk: a relayed frame is scanned whole, and
 * stepping every marker pattern per character was a measurable share of the per-frame work.
 */
public final class StreamCompletion {

    /** The failure message of a stream that ended without a terminal marker. */
    public static final String DISCONNECTED_MESSAGE = "stream_disconnected_before_completion";

    /** Pattern token meaning "any run of JSON whitespace, possibly empty". */
    private static final int WS = -1;
    /** Pattern token meaning "any one character but a double quote". */
    private static final int NOT_QUOTE = -2;

    private static final List<int[]> PATTERNS = List.of(
            literal("response.completed"),
            literal("response.incomplete"),
            literal("[DONE]"),
            literal("message_stop"),
            jsonKeyWithText("finish_reason"),
            jsonKeyWithText("finishReason"),
            jsonKeyWithText("blockReason"));

    private static final int[][] TOKENS = PATTERNS.toArray(new int[0][]);
    private static final long[] WHITESPACE_POSITIONS =
            PATTERNS.stream().mapToLong(StreamCompletion::whitespacePositions).toArray();

    /** Character class of every byte / Latin-1 character; characters above 255 are {@link #OTHER}. */
    private static final byte[] CLASS_OF = new byte[256];
    /** The class of every character no marker uses (it also stands for every non-ASCII character). */
    private static final int OTHER = 0;

    private static final int CLASSES;
    /**
     * The automaton's transitions, {@code NEXT[row + class]}, where a state's row is its number times
     * {@link #CLASSES} and each entry is the next state's row (kept pre-multiplied, so the per-byte
     * step is one addition and one load); row 0 is the start.
     */
    private static final int[] NEXT;
    /** The row of the one accepting state, absorbing. */
    private static final int COMPLETE;
    /** Guards the class initialisation against a marker set that would explode the automaton. */
    static final int MAX_STATES = 4096;

    static {
        int[] representative = characterClasses();
        CLASSES = representative.length;
        Automaton automaton = Automaton.compile(representative);
        NEXT = automaton.next;
        COMPLETE = automaton.complete * CLASSES;
    }

    /** One immutable {@link Scan} per automaton state, so feeding a chunk never allocates. */
    private static final Scan[] SCANS = scans();

    private StreamCompletion() {}

    /** Whether the whole text carries a terminal marker: the buffered path's check. */
    public static boolean hasTerminalMarker(CharSequence text) {
        return scan().feed(text).completed();
    }

    /** A fresh scan for the streaming path. */
    public static Scan scan() {
        return SCANS[0];
    }

    /** How many states the compiled automaton has (for its tests). */
    static int automatonStates() {
        return SCANS.length;
    }

    /**
     * Immutable progress of an incremental scan: each {@code feed} returns the progress after that
     * chunk. Once complete it stays complete.
     */
    public static final class Scan {

        /** The automaton state's row in {@link #NEXT}. */
        private final int state;

        private Scan(int state) {
            this.state = state;
        }

        public boolean completed() {
            return state == COMPLETE;
        }

        public Scan feed(CharSequence chunk) {
            if (state == COMPLETE || chunk == null || chunk.length() == 0) {
                return this;
            }
            int s = state;
            for (int i = 0; i < chunk.length(); i++) {
                char c = chunk.charAt(i);
                s = NEXT[s + (c < 256 ? CLASS_OF[c] : OTHER)];
                if (s == COMPLETE) {
                    break;
                }
            }
            return SCANS[s / CLASSES];
        }

        public Scan feed(byte[] bytes, int offset, int length) {
            if (state == COMPLETE || length == 0) {
                return this;
            }
            int s = state;
            for (int i = offset, end = offset + length; i < end; i++) {
                s = NEXT[s + CLASS_OF[bytes[i] & 0xFF]];
                if (s == COMPLETE) {
                    break;
                }
            }
            return SCANS[s / CLASSES];
        }
    }

    /**
     * Subset construction over the marker patterns' positions: a state is, per pattern, the set of
     * its positions reached (a bit set, as {@link #step} advances it), and the accepting state is
     * reached as soon as one pattern has fully matched.
     */
    private static final class Automaton {

        private final int[] next;
        private final int complete;

        private Automaton(int[] next, int complete) {
            this.next = next;
            this.complete = complete;
        }

        static Automaton compile(int[] representative) {
            int classes = representative.length;
            Map<List<Long>, Integer> ids = new HashMap<>();
            List<long[]> states = new ArrayList<>();
            List<int[]> rows = new ArrayList<>();
            long[] start = new long[TOKENS.length];
            ids.put(key(start), 0);
            states.add(start);
            // the accepting state: id 1, its own key cannot collide with a real configuration
            long[] accepted = new long[TOKENS.length];
            Arrays.fill(accepted, -1L);
            ids.put(key(accepted), 1);
            states.add(accepted);
            for (int id = 0; id < states.size(); id++) {
                int[] row = new int[classes];
                if (id == 1) {
                    Arrays.fill(row, 1);
                } else {
                    for (int k = 0; k < classes; k++) {
                        long[] after = states.get(id).clone();
                        if (step(after, representative[k])) {
                            row[k] = 1;
                            continue;
                        }
                        Integer known = ids.get(key(after));
                        if (known == null) {
                            if (states.size() >= MAX_STATES) {
                                throw new IllegalStateException(
                                        "the terminal markers need more than " + MAX_STATES + " automaton states");
                            }
                            known = states.size();
                            ids.put(key(after), known);
                            states.add(after);
                        }
                        row[k] = known;
                    }
                }
                rows.add(row);
            }
            int[] next = new int[rows.size() * classes];
            for (int id = 0; id < rows.size(); id++) {
                int[] row = rows.get(id);
                for (int k = 0; k < classes; k++) {
                    next[id * classes + k] = row[k] * classes;
                }
            }
            return new Automaton(next, 1);
        }

        private static List<Long> key(long[] states) {
            List<Long> key = new ArrayList<>(states.length);
            for (long state : states) {
                key.add(state);
            }
            return key;
        }
    }

    /**
     * Advances every pattern by one character; true when one of them has fully matched. Only the
     * positions a pattern currently occupies are visited (position 0 always is: a marker may start
     * anywhere).
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
                } else if (token == c || (token == NOT_QUOTE && c != '"')) {
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

    /**
     * Fills {@link #CLASS_OF}: one class per character a marker uses and per JSON whitespace
     * character, class {@link #OTHER} for the rest. Returns one representative character per class.
     */
    private static int[] characterClasses() {
        List<Integer> representative = new ArrayList<>();
        representative.add(0); // OTHER: NUL stands for every character no marker uses
        for (int c = 1; c < 256; c++) {
            if (usedByAMarker(c) || isJsonWhitespace(c)) {
                CLASS_OF[c] = (byte) representative.size();
                representative.add(c);
            }
        }
        if (representative.size() > Byte.MAX_VALUE) {
            throw new IllegalStateException("too many character classes for the terminal markers");
        }
        return representative.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean usedByAMarker(int c) {
        for (int[] tokens : TOKENS) {
            if (tokens[0] < 0) {
                throw new IllegalStateException("a pattern must start with a character");
            }
            for (int token : tokens) {
                if (token == c) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Scan[] scans() {
        Scan[] scans = new Scan[NEXT.length / CLASSES];
        for (int i = 0; i < scans.length; i++) {
            scans[i] = new Scan(i * CLASSES);
        }
        return scans;
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

    /**
     * {@code "key"}, optional whitespace, a colon, optional whitespace, then a string value with at
     * least one character: {@code "key" : "x}.
     */
    private static int[] jsonKeyWithText(String key) {
        String quotedKey = '"' + key + '"';
        int[] tokens = new int[quotedKey.length() + 5];
        int at = 0;
        for (char c : quotedKey.toCharArray()) {
            tokens[at++] = c;
        }
        tokens[at++] = WS;
        tokens[at++] = ':';
        tokens[at++] = WS;
        tokens[at++] = '"';
        tokens[at] = NOT_QUOTE;
        return tokens;
    }
}
