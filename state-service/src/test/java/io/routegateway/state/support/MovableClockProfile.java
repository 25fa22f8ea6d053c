package io.routegateway.state.support;

import java.util.Map;
import java.util.Set;

import io.quarkus.test.junit.QuarkusTestProfile;

/** state-service whose Clock is a {@link MovableClock}, budget windows in UTC. */
public class MovableClockProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("route.default-time-zone", "UTC");
    }

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(MovableClock.class);
    }
}
