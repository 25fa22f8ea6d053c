package io.routegateway.core.bridge;

import java.nio.charset.StandardCharsets;

/** One server-sent event: optional {@code event:} name and its {@code data:} payload. */
public record SseEvent(String event, String data) {

    public static SseEvent data(String data) {
        return new SseEvent(null, data);
    }

    /** The event's wire form, ending with the blank line that dispatches it. */
    public String wire() {
        StringBuilder out = new StringBuilder(data.length() + 32);
        if (event != null) {
            out.append("event: ").append(event).append('\n');
        }
        int start = 0;
        int newline;
        while ((newline = data.indexOf('\n', start)) >= 0) {
            out.append("data: ").append(data, start, newline).append('\n');
            start = newline + 1;
        }
        out.append("data: ").append(data, start, data.length()).append("\n\n");
        return out.toString();
    }

    public byte[] bytes() {
        return wire().getBytes(StandardCharsets.UTF_8);
    }
}
