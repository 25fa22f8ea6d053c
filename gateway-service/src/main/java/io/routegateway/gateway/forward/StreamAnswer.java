package io.routegateway.gateway.forward;

import java.util.function.BiConsumer;

import io.routegateway.common.upstream.UpstreamStream;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.secretmask.StreamMask;
import io.vertx.core.AsyncResult;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * A stream committed to the client: the steps every streamed answer shares, written once. The head
 * goes out with the first chunk; each later chunk is handed to {@link #frames} and what it returns
 * is written with the rest of its event-loop turn ({@link TurnWrites}); a client that cannot keep
 * up pauses the upstream; at the upstream's end {@link #tail} writes what is left, the response
 * ends, and the exchange is told how the stream ended. Nothing here decides a verdict.
 */
abstract class StreamAnswer {

    /** A frame's write is not awaited: see {@link #writeTurn}. */
    private static final Handler<AsyncResult<Void>> NO_COMPLETION = null;

    /** How a committed stream ended: the upstream's outcome, and a bridge failure if one broke it. */
    record End(UpstreamOutcome outcome, RuntimeException transformFailure) {}

    final UpstreamStream stream;
    private final HttpServerResponse response;
    private final BiConsumer<StreamAnswer, End> onEnded;
    /** Every byte the client gets passes through it: the credential's secret never goes out. */
    private final StreamMask secrets;

    private TurnWrites turnWrites;
    /** The client went away or the gateway reset the stream: nothing more is written or reported. */
    private boolean abandoned;

    private boolean ended;

    StreamAnswer(
            UpstreamStream stream,
            HttpServerResponse response,
            StreamMask secrets,
            BiConsumer<StreamAnswer, End> ended) {
        this.stream = stream;
        this.secrets = secrets;
        this.response = response;
        this.onEnded = ended;
    }

    /**
     * What the client gets for one upstream chunk (null or empty: nothing yet); a {@link
     * RuntimeException} ends the client's stream as a bridge failure.
     */
    abstract Buffer frames(Buffer chunk, byte[] bytes);

    /** What the client still gets once the upstream has ended; null or empty for nothing. */
    abstract Buffer tail();

    /** Sends the head and {@code first}, then lets the rest of the upstream stream flow. */
    void commit(RoutingContext ctx, Settlement settlement, Buffer first, String contentType) {
        response.setStatusCode(stream.status());
        UpstreamHeaders.copy(stream.headers(), response, "text/event-stream");
        if (contentType != null) {
            response.putHeader("content-type", contentType);
        }
        response.putHeader("cache-control", "no-cache");
        response.setChunked(true);
        ClientFlushes.consolidate(ctx.request());
        turnWrites = new TurnWrites(ctx.vertx().getOrCreateContext(), this::writeTurn);
        settlement.firstByteSent();
        relay(first);
        stream.start(this::onChunk, this::onEnd);
    }

    private void onChunk(Buffer chunk, byte[] bytes) {
        Buffer out;
        try {
            out = frames(chunk, bytes);
        } catch (RuntimeException e) {
            stream.cancel();
            end(new End(null, e));
            return;
        }
        relay(out);
        if (response.writeQueueFull()) {
            stream.pause();
            response.drainHandler(ignored -> stream.resume());
        }
    }

    private void onEnd(UpstreamOutcome outcome) {
        if (abandoned) {
            return;
        }
        RuntimeException transformFailure = null;
        try {
            relay(tail());
        } catch (RuntimeException e) {
            transformFailure = e;
        }
        end(new End(outcome, transformFailure));
    }

    private void end(End end) {
        if (abandoned || ended) {
            return;
        }
        ended = true;
        byte[] held = secrets.finish();
        if (held.length > 0) {
            turnWrites.add(Buffer.buffer(held));
        }
        turnWrites.writeNow();
        response.end();
        onEnded.accept(this, end);
    }

    /** The client went away: the upstream is let go, nothing more is written or reported. */
    void clientGone() {
        abandoned = true;
        stream.cancel();
    }

    /** The gateway failed: the upstream is let go, unwritten frames dropped, the client's stream reset. */
    void reset() {
        abandoned = true;
        stream.cancel();
        turnWrites.discard();
        response.reset();
    }

    private void relay(Buffer frames) {
        if (frames != null && frames.length() > 0) {
            byte[] raw = frames.getBytes();
            byte[] masked = secrets.push(raw);
            if (masked.length > 0) {
                turnWrites.add(masked == raw ? frames : Buffer.buffer(masked));
            }
        }
    }

    /**
     * Writes a turn's frames without asking for completion: nothing waits on it (a broken client
     * connection reaches the exchange's close handler, backpressure is {@code writeQueueFull}), and
     * without a handler Vert.x writes with Netty's void promise instead of a promise and a listener
     * per write.
     */
    private void writeTurn(Buffer turn) {
        if (!abandoned && !response.ended()) {
            response.write(turn, NO_COMPLETION);
        }
    }
}
