package io.routegateway.core.bridge;

import java.util.ArrayList;
import java.util.List;

/**
 * One bridged stream: upstream bytes in, client SSE events out, frame by frame. Each upstream event
 * is decoded and re-encoded as soon as its blank line arrives, so the client's first token leaves
 * with the upstream's. Usage is tracked as it streams, so a stream the client abandons can still be
 * settled. Whether the upstream stream was complete is judged on the upstream's own bytes (by the
 * caller's {@code StreamCompletion} scan), not on what this emits. Not thread-safe: one per stream.
 */
public final class StreamTranslator {

    private final SseParser parser = new SseParser();
    private final ProtocolCodec.StreamDecoder decoder;
    private final ProtocolCodec.StreamEncoder encoder;
    private Usage usage = Usage.NONE;
    private boolean terminal;
    private boolean emitted;

    StreamTranslator(ProtocolCodec.StreamDecoder decoder, ProtocolCodec.StreamEncoder encoder) {
        this.decoder = decoder;
        this.encoder = encoder;
    }

    /**
     * Translates one upstream chunk.
     *
     * @throws BridgeException an upstream frame is not its protocol's shape ({@code response_transform})
     */
    public List<SseEvent> feed(byte[] chunk, int offset, int length) {
        return translate(parser.feed(chunk, offset, length), List.of());
    }

    public List<SseEvent> feed(byte[] chunk) {
        return feed(chunk, 0, chunk.length);
    }

    /** The upstream stream ended: the last unterminated frame and anything it implies. */
    public List<SseEvent> finish() {
        List<SseEvent> last = parser.finish();
        return translate(last, decoder.end());
    }

    private List<SseEvent> translate(List<SseEvent> upstream, List<StreamEvent> trailing) {
        if (upstream.isEmpty() && trailing.isEmpty()) {
            return List.of();
        }
        List<SseEvent> out = new ArrayList<>(upstream.size() + 2);
        for (SseEvent event : upstream) {
            for (StreamEvent canonical : decoder.decode(event)) {
                emit(canonical, out);
            }
        }
        for (StreamEvent canonical : trailing) {
            emit(canonical, out);
        }
        return out;
    }

    private void emit(StreamEvent event, List<SseEvent> out) {
        if (event instanceof StreamEvent.Started started) {
            usage = usage.merge(started.usage());
        } else if (event instanceof StreamEvent.Finished finished) {
            usage = usage.merge(finished.usage());
            terminal = true;
        } else if (event instanceof StreamEvent.Failed) {
            terminal = true;
        }
        List<SseEvent> encoded = encoder.encode(event);
        emitted |= !encoded.isEmpty();
        out.addAll(encoded);
    }

    /** The usage known so far (final once {@link #terminal()}). */
    public Usage usage() {
        return usage;
    }

    /** Whether the translated stream has reached its end (finished or failed). */
    public boolean terminal() {
        return terminal;
    }

    /** Whether anything has been produced for the client yet. */
    public boolean emitted() {
        return emitted;
    }

    /** The events' wire text, concatenated. */
    public static String wire(List<SseEvent> events) {
        if (events.size() == 1) {
            return events.get(0).wire();
        }
        StringBuilder out = new StringBuilder();
        for (SseEvent event : events) {
            out.append(event.wire());
        }
        return out.toString();
    }
}
