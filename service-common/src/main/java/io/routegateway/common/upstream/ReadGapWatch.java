package io.routegateway.common.upstream;

import io.vertx.core.Vertx;

/**
 * The read-gap ceiling once the response head has arrived (Vert.x's request idle timeout stops at
 * the head): fires when no byte has been read for the configured gap. One timer per gap window,
 * not one per chunk: on expiry it re-arms for the remaining time if a read happened meanwhile.
 * While reading is paused on purpose (a slow client, or awaiting the caller's decision) the clock
 * does not run. Used on one Vert.x context only.
 */
final class ReadGapWatch {

    private final Vertx vertx;
    private final long gapMillis;
    private final Runnable onStall;
    private long lastReadNanos;
    private long timerId = -1;
    private boolean suspended;
    private boolean stopped;

    ReadGapWatch(Vertx vertx, long gapMillis, Runnable onStall) {
        this.vertx = vertx;
        this.gapMillis = gapMillis;
        this.onStall = onStall;
        this.lastReadNanos = System.nanoTime();
        schedule(gapMillis);
    }

    void touch() {
        lastReadNanos = System.nanoTime();
    }

    void suspend() {
        suspended = true;
    }

    void resume() {
        suspended = false;
        touch();
    }

    void stop() {
        stopped = true;
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    private void schedule(long delayMillis) {
        timerId = vertx.setTimer(Math.max(1, delayMillis), id -> check());
    }

    private void check() {
        timerId = -1;
        if (stopped) {
            return;
        }
        if (suspended) {
            schedule(gapMillis);
            return;
        }
        long idleMillis = (System.nanoTime() - lastReadNanos) / 1_000_000;
        if (idleMillis >= gapMillis) {
            stopped = true;
            onStall.run();
        } else {
            schedule(gapMillis - idleMillis);
        }
    }
}
