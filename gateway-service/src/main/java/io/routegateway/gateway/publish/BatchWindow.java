package io.routegateway.gateway.publish;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.routegateway.core.event.JsonBatch;
import io.vertx.core.Vertx;

/**
 * Gathers records (JSON objects already written) for up to one window and hands them on as one
 * batch, so that a request costs a list append instead of a Kafka send: the emitter, its lock and a
 * producer wake-up are paid once per window, not per record. The first record of a window sets a
 * Vert.x timer; a batch that fills up ({@link JsonBatch.Collector}: records or characters) leaves at
 * once. Records leave in the order they were added. Thread-safe; never blocks beyond a list append.
 */
final class BatchWindow {

    private final Vertx vertx;
    private final long windowMs;
    private final Consumer<List<String>> send;
    /** Guarded by this. */
    private final JsonBatch.Collector gathering;
    /** Guarded by this: a timer will send what is gathering. */
    private boolean sendScheduled;

    /** @param send takes each batch (never empty), on the thread that completed it or the timer's */
    BatchWindow(Vertx vertx, Duration window, int maxRecords, Consumer<List<String>> send) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a batch window must be positive, was " + window);
        }
        this.vertx = vertx;
        this.windowMs = Math.max(1, window.toMillis());
        this.send = send;
        this.gathering = new JsonBatch.Collector(maxRecords);
    }

    void add(String json) {
        List<List<String>> full;
        boolean schedule = false;
        synchronized (this) {
            full = gathering.add(json);
            if (!gathering.isEmpty() && !sendScheduled) {
                sendScheduled = true;
                schedule = true;
            }
            // sent inside the lock: a full batch must not overtake the records gathered after it
            for (List<String> batch : full) {
                send.accept(batch);
            }
        }
        if (schedule) {
            vertx.setTimer(windowMs, ignored -> flush());
        }
    }

    /** Sends what is gathering now (the window's timer, and shutdown). */
    void flush() {
        synchronized (this) {
            sendScheduled = false;
            List<String> batch = gathering.drain();
            if (!batch.isEmpty()) {
                send.accept(batch);
            }
        }
    }
}
