package io.routegateway.core.forward;

/**
 * Where a streamed answer's failover window ends: at its first data, not at its first byte.
 *
 * <p>The streaming path waits for the first data chunk inside the retry loop (seed A: "waits for
 * the first data chunk"; seed B: it switches "only before the first data block arrives"). Relays
 * open streams with SSE comments ({@code : OPENROUTER PROCESSING}, {@code : keep-alive}) and blank
 * lines while the upstream has not answered yet; committing the stream on those would hand the
 * client a 200 whose next frame may be the error envelope that should have failed over. So the
 * window stays open across every line that starts with {@code :} and every empty line, and ends
 * with the first byte of any other line ({@code data:}, {@code event:}, or a body that is not SSE
 * at all, such as a JSON array).
 *
 * <p>Incremental over raw bytes: a comment split across chunks is still a comment. Immutable; each
 * {@link #feed} returns where the scan stands after the bytes.
 */
public enum StreamOpening {
    /** At the start of a line, nothing but comments and blank lines so far. */
    AT_LINE_START,
    /** Inside a comment line. */
    IN_COMMENT,
    /** Data has begun: the window is over. Absorbing. */
    DATA;

    /** The scan of a stream nothing has arrived from. */
    public static StreamOpening start() {
        return AT_LINE_START;
    }

    public boolean dataBegun() {
        return this == DATA;
    }

    /** Where the scan stands after {@code length} bytes from {@code offset}. */
    public StreamOpening feed(byte[] bytes, int offset, int length) {
        StreamOpening state = this;
        for (int i = offset, end = offset + length; i < end && state != DATA; i++) {
            byte b = bytes[i];
            boolean lineBreak = b == '\n' || b == '\r';
            if (state == IN_COMMENT) {
                state = lineBreak ? AT_LINE_START : IN_COMMENT;
            } else if (!lineBreak) {
                state = b == ':' ? IN_COMMENT : DATA;
            }
        }
        return state;
    }

    /** Whether the whole text, read from the start, has begun its data. */
    public static boolean hasData(byte[] bytes) {
        return start().feed(bytes, 0, bytes.length).dataBegun();
    }
}
