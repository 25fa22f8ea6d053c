package io.routegateway.gateway.forward;

import java.util.function.Consumer;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;

/**
 * The frames relayed in one turn of the request's event loop, written as one after that turn's
 * reads: the frames of one upstream read cost one write to the client (one chunk, one pass through
 * Vert.x's and Netty's write path), not one each. A lone frame is written as it came (no copy); it
 * waits for nothing but the rest of the turn it arrived in. Confined to the context's event loop.
 */
final class TurnWrites {

    private final Context context;
    private final Consumer<Buffer> write;
    private final Handler<Void> writeAtTurnEnd = ignored -> writeNow();
    private Buffer unwritten;
    /** Whether {@link #unwritten} is this writer's own buffer (appendable) or a frame as it arrived. */
    private boolean unwrittenIsOwn;

    /**
     * @param context the request's context: the frames are relayed on its event loop
     * @param write writes the frames of a turn to the client
     */
    TurnWrites(Context context, Consumer<Buffer> write) {
        this.context = context;
        this.write = write;
    }

    void add(Buffer frame) {
        if (unwritten == null) {
            unwritten = frame;
            unwrittenIsOwn = false;
            // a task on the event loop runs after the reads of the turn it was scheduled in
            context.runOnContext(writeAtTurnEnd);
            return;
        }
        if (!unwrittenIsOwn) {
            unwritten = Buffer.buffer(2 * (unwritten.length() + frame.length())).appendBuffer(unwritten);
            unwrittenIsOwn = true;
        }
        unwritten.appendBuffer(frame);
    }

    /** Writes what this turn holds now: before the response ends, so the end follows every frame. */
    void writeNow() {
        Buffer frames = unwritten;
        unwritten = null;
        if (frames != null) {
            write.accept(frames);
        }
    }

    /** Drops what this turn holds: the response is reset or its client is gone. */
    void discard() {
        unwritten = null;
    }
}
