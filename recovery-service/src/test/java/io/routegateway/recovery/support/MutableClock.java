package io.routegateway.recovery.support;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

/** The service's Clock in tests (enabled by {@link RecoveryTestProfile}): tests set "now". */
@Alternative
@Singleton
public class MutableClock extends Clock {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-08-01T00:00:00Z"));

    public void set(Instant instant) {
        now.set(instant);
    }

    public void set(String isoInstant) {
        set(Instant.parse(isoInstant));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the service reads instants only");
    }
}
