package io.routegateway.core.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * When a failed delivery is tried again: exponential backoff {@code base * 2^(attempts-1)}, capped
 * at {@code max}, for at most {@code maxAttempts} attempts in all; after the last failure the
 * delivery is given up ({@code failed}).
 */
public record DeliveryBackoff(Duration base, Duration max, int maxAttempts) {

    public DeliveryBackoff {
        if (base == null || max == null || base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < base <= max");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("at least one attempt");
        }
    }

    /**
     * The next attempt after {@code attempts} failed ones (1 = the first failed), from the clock's
     * now; null when no attempt is left.
     */
    public Instant nextAttempt(Clock clock, int attempts) {
        if (attempts >= maxAttempts) {
            return null;
        }
        return clock.instant().plus(delay(attempts));
    }

    /** The wait after {@code attempts} failed attempts (1 = the first). */
    public Duration delay(int attempts) {
        int doublings = Math.max(0, Math.min(attempts - 1, 30));
        Duration delay = base.multipliedBy(1L << doublings);
        return delay.compareTo(max) > 0 ? max : delay;
    }
}
