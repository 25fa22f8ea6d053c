package io.routegateway.core.bridge;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Incremental SSE parser over raw bytes. Chunks are fed as they arrive; only the unfinished last
 * line is kept between chunks, so per-chunk work is proportional to the chunk, never to the stream
 * so far. Lines are cut at the byte {@code \n} (a UTF-8 multi-byte sequence never contains it), so a
 * character split across chunks is decoded whole. Comments ({@code :keepalive}) are skipped; an
 * event is dispatched on a blank line. At {@link #finish()} an event whose lines all arrived is
 * still dispatched (some upstreams omit the last blank line), but a line cut off mid-way is dropped
 * with its event: a truncated frame is not a frame.
 * Not thread-safe: one per stream.
 */
public final class SseParser {

    /** A single line longer than this is hostile input, not SSE. */
    public static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    /**
     * One event's {@code data}, all its lines together, longer than this (in characters) is hostile input too:
     * without it an upstream could send short {@code data:} lines and never the blank line that ends the event,
     * and the bridge would hold them all.
     */
    public static final int MAX_EVENT_CHARS = 16 * 1024 * 1024;

    private byte[] pending = new byte[0];
    private int pendingLength;
    private String event;
    private StringBuilder data;

    public List<SseEvent> feed(byte[] chunk) {
        return feed(chunk, 0, chunk.length);
    }

    public List<SseEvent> feed(byte[] chunk, int offset, int length) {
        List<SseEvent> events = new ArrayList<>(2);
        int lineStart = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (chunk[i] != '\n') {
                continue;
            }
            if (pendingLength > 0) {
                append(chunk, lineStart, i - lineStart);
                line(pending, 0, pendingLength, events);
                pendingLength = 0;
            } else {
                line(chunk, lineStart, i - lineStart, events);
            }
            lineStart = i + 1;
        }
        if (lineStart < end) {
            append(chunk, lineStart, end - lineStart);
        }
        return events;
    }

    public List<SseEvent> feed(String chunk) {
        return feed(chunk.getBytes(StandardCharsets.UTF_8));
    }

    /** The stream ended: a last event missing only its blank line is dispatched, a cut-off one dropped. */
    public List<SseEvent> finish() {
        List<SseEvent> events = new ArrayList<>(1);
        if (pendingLength > 0) {
            pendingLength = 0;
            event = null;
            data = null;
        }
        dispatch(events);
        return events;
    }

    private void append(byte[] bytes, int offset, int length) {
        if (pendingLength + length > MAX_LINE_BYTES) {
            throw new BridgeException("SSE line longer than " + MAX_LINE_BYTES + " bytes");
        }
        if (pendingLength + length > pending.length) {
            byte[] grown = new byte[Math.max(pending.length * 2, pendingLength + length)];
            System.arraycopy(pending, 0, grown, 0, pendingLength);
            pending = grown;
        }
        System.arraycopy(bytes, offset, pending, pendingLength, length);
        pendingLength += length;
    }

    private void line(byte[] bytes, int offset, int length, List<SseEvent> events) {
        if (length > 0 && bytes[offset + length - 1] == '\r') {
            length--;
        }
        if (length == 0) {
            dispatch(events);
            return;
        }
        if (bytes[offset] == ':') {
            return;
        }
        String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (field.equals("event")) {
            event = value;
        } else if (field.equals("data")) {
            if (data != null && data.length() + 1 + value.length() > MAX_EVENT_CHARS) {
                throw new BridgeException("SSE event longer than " + MAX_EVENT_CHARS + " characters");
            }
            if (data == null) {
                data = new StringBuilder(value);
            } else {
                data.append('\n').append(value);
            }
        }
    }

    private void dispatch(List<SseEvent> events) {
        if (data != null) {
            events.add(new SseEvent(event, data.toString()));
        }
        event = null;
        data = null;
    }
}
