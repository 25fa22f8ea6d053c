package io.routegateway.state.usage;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.outcome.Failures;

/**
 * Whether the usage consumer is paused: its batch could not be stored for a passing database
 * failure (out of space, SQLSTATE class 53; a lost connection; a restart) and it is retrying that
 * batch with back-off. While it retries, nothing after the batch is consumed: the records wait in
 * {@code route.usage} (their offsets are not committed) and none is lost or dead-lettered. The
 * credential-state path (its own channel, its own transactions) is not held by it. Read by the
 * {@code state-usage-consumer} readiness check.
 */
@ApplicationScoped
public class UsageStorage {

    /**
     * The pause as reported.
     *
     * @param since when the first failed attempt of the batch was seen
     * @param sqlState the last failure's SQLSTATE, null when it had none (a lost connection)
     * @param reason {@code out_of_space} (SQLSTATE 53100), {@code insufficient_resources} (other class
     *     53), {@code database_unavailable} otherwise
     * @param failedAttempts failed attempts since the pause began
     */
    public record Pause(Instant since, String sqlState, String reason, long failedAttempts) {}

    private final Clock clock;
    private final AtomicLong failedAttempts = new AtomicLong();
    private volatile Pause pause;

    UsageStorage(Clock clock, StateMetrics metrics) {
        this.clock = clock;
        metrics.usagePausedGauge(() -> pause == null ? 0 : 1);
    }

    /** The current pause, null when the consumer is storing. */
    public Pause pause() {
        return pause;
    }

    /** A passing failure of a batch: the consumer retries it and is paused until one attempt stores it. */
    void failed(Throwable failure) {
        String sqlState = Failures.sqlState(failure);
        long attempts = failedAttempts.incrementAndGet();
        Pause current = pause;
        pause = new Pause(current == null ? clock.instant() : current.since(), sqlState, reason(sqlState), attempts);
    }

    /** A batch was stored: the pause, if any, is over. */
    void stored() {
        if (pause != null) {
            pause = null;
            failedAttempts.set(0);
        }
    }

    static String reason(String sqlState) {
        if ("53100".equals(sqlState)) {
            return "out_of_space";
        }
        if (sqlState != null && sqlState.startsWith("53")) {
            return "insufficient_resources";
        }
        return "database_unavailable";
    }
}
