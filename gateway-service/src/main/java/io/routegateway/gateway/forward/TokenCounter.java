package io.routegateway.gateway.forward;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

import jakarta.inject.Singleton;

import io.vertx.core.Vertx;

/**
 * Runs the local token estimate where it does not hold up other requests: a small text (at most
 * {@value #INLINE_CHARS} characters, well under a millisecond of o200k_base counting) is counted at
 * once on the event loop, a larger one on a worker thread, its result handed back on the request's
 * event loop.
 */
@Singleton
public class TokenCounter {

    /** Largest text counted on the event loop. */
    public static final long INLINE_CHARS = 16 * 1024;

    private final Vertx vertx;

    TokenCounter(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Counts {@code texts} (ordinary text, special-token markers included) and hands the count on. */
    void count(List<String> texts, IntConsumer then, Consumer<Throwable> failed) {
        long chars = 0;
        for (String text : texts) {
            chars += text.length();
        }
        count(chars, () -> TokenEstimator.count(texts), then, failed);
    }

    /** Runs {@code counter} inline when {@code chars} is small, else on a worker; {@code then} on the caller's context. */
    void count(long chars, IntSupplier counter, IntConsumer then, Consumer<Throwable> failed) {
        if (chars <= INLINE_CHARS) {
            then.accept(counter.getAsInt());
            return;
        }
        vertx.executeBlocking(counter::getAsInt, false).onComplete(counted -> {
            if (counted.succeeded()) {
                then.accept(counted.result());
            } else {
                failed.accept(counted.cause());
            }
        });
    }
}
