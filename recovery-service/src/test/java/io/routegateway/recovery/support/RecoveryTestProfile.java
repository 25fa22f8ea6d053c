package io.routegateway.recovery.support;

import java.util.Map;
import java.util.Set;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Tests drive the ticks themselves with a {@link MutableClock}: the scheduler is off, so no tick
 * runs behind a test's back. Upstream ceilings are short so a stalled mock cannot hold a test.
 */
public class RecoveryTestProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.scheduler.enabled", "false",
                "recovery.upstream.connect-timeout", "2s",
                "recovery.upstream.read-gap-timeout", "2s");
    }

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(MutableClock.class);
    }
}
