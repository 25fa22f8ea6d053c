package io.routegateway.state.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

/**
 * The service's Clock under {@link MovableClockProfile}: the system clock plus an offset a test moves
 * forward (past a budget window's end, say) without waiting.
 */
@Alternative
@Singleton
public class MovableClock extends Clock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    public void advance(Duration by) {
        offset.updateAndGet(current -> current.plus(by));
    }

    /** From now on the clock reads {@code at} plus the time that passes. */
    public void setTo(Instant at) {
        offset.set(Duration.between(Instant.now(), at));
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
