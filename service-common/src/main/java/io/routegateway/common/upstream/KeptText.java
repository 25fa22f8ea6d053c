package io.routegateway.common.upstream;

import java.util.ArrayDeque;

/**
 * The part of a passed-through stream kept for classification and usage: its head (where failure
 * envelopes and Anthropic's input-token count sit) and its tail (where the terminal frame and the
 * final usage sit), bounded so a long generation costs constant memory.
 */
final class KeptText {

    static final int HEAD_LIMIT = 64 * 1024;
    static final int TAIL_LIMIT = 32 * 1024;

    private final StringBuilder head = new StringBuilder();
    private final ArrayDeque<String> tail = new ArrayDeque<>();
    private int tailLength;
    private boolean skipped;

    void append(String chunk) {
        if (head.length() < HEAD_LIMIT && tail.isEmpty()) {
            int room = HEAD_LIMIT - head.length();
            if (chunk.length() <= room) {
                head.append(chunk);
                return;
            }
            head.append(chunk, 0, room);
            chunk = chunk.substring(room);
        }
        tail.addLast(chunk);
        tailLength += chunk.length();
        while (tailLength - tail.peekFirst().length() >= TAIL_LIMIT) {
            tailLength -= tail.removeFirst().length();
            skipped = true;
        }
    }

    boolean isEmpty() {
        return head.length() == 0;
    }

    /**
     * Head and tail; when something between them was dropped, the tail starts at its first frame
     * boundary so no frame is spliced from two places.
     */
    String text() {
        if (tail.isEmpty()) {
            return head.toString();
        }
        StringBuilder rest = new StringBuilder(tailLength);
        tail.forEach(rest::append);
        if (!skipped) {
            return head + rest.toString();
        }
        int boundary = rest.indexOf("\n\n");
        String alignedTail = boundary < 0 ? "" : rest.substring(boundary + 2);
        return head + "\n\n" + alignedTail;
    }
}
