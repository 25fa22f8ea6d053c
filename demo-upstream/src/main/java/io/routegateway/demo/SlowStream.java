package io.routegateway.demo;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;

/**
 * A slow streamed answer, as a model generating tokens sends it: {@code frames} one-token content
 * frames {@code intervalMs} apart (the first at once), the protocol's terminal frames right after
 * the last one. Asked for per request with {@code "demo_stream":{"frames":F,"interval_ms":I}} in the
 * body, so the direct path and the gateway's path get the same stream without any account set-up.
 * One periodic timer per stream; a client that goes away stops it.
 *
 * @param frames content frames (1..100,000)
 * @param intervalMs pause between two content frames (0..60,000 ms; 0 = all at once)
 */
record SlowStream(int frames, long intervalMs) {

    static final int MAX_FRAMES = 100_000;
    static final long MAX_INTERVAL_MS = 60_000;

    /** The request's slow-stream ask, null when it has none or it is out of range. */
    static SlowStream of(JsonNode request) {
        JsonNode ask = request == null ? null : request.get("demo_stream");
        if (ask == null || !ask.isObject()) {
            return null;
        }
        int frames = ask.path("frames").asInt(0);
        long interval = ask.path("interval_ms").asLong(-1);
        if (frames < 1 || frames > MAX_FRAMES || interval < 0 || interval > MAX_INTERVAL_MS) {
            return null;
        }
        return new SlowStream(frames, interval);
    }

    /** One word per content frame ({@link Replies#stream} sends a frame per word). */
    String text() {
        StringBuilder text = new StringBuilder(frames * 4);
        for (int i = 0; i < frames; i++) {
            if (i > 0) {
                text.append(' ');
            }
            text.append("tok").append(i % 10);
        }
        return text.toString();
    }

    /**
     * Sends {@code all} ({@link Replies#stream} of {@link #text}: the protocol's opening frames, the
     * content frames, its terminal frames) on {@code response}, one write per tick: the opening
     * frames with the first content frame, the terminal frames with the last one.
     */
    void send(Vertx vertx, HttpServerResponse response, Replies.Protocol protocol, List<String> all) {
        List<String> ticks = ticks(protocol, all);
        DemoUpstream.sse(response);
        response.write(ticks.get(0));
        if (ticks.size() == 1 || intervalMs == 0) {
            for (int i = 1; i < ticks.size(); i++) {
                response.write(ticks.get(i));
            }
            response.end();
            return;
        }
        int[] next = {1};
        long timer = vertx.setPeriodic(intervalMs, id -> {
            if (response.ended() || response.closed()) {
                vertx.cancelTimer(id);
                return;
            }
            response.write(ticks.get(next[0]++));
            if (next[0] == ticks.size()) {
                vertx.cancelTimer(id);
                response.end();
            }
        });
        response.closeHandler(ignored -> vertx.cancelTimer(timer));
    }

    /** What each tick writes: {@code frames} strings. */
    List<String> ticks(Replies.Protocol protocol, List<String> all) {
        int lead = protocol == Replies.Protocol.OPENAI_RESPONSES ? 1 : protocol == Replies.Protocol.ANTHROPIC ? 2 : 0;
        List<String> ticks = new ArrayList<>(frames);
        for (int i = 0; i < frames; i++) {
            ticks.add(all.get(lead + i));
        }
        ticks.set(0, String.join("", all.subList(0, lead)) + ticks.get(0));
        ticks.set(frames - 1, ticks.get(frames - 1) + String.join("", all.subList(lead + frames, all.size())));
        return ticks;
    }
}
