package io.routegateway.gateway.forward;

import java.time.Duration;

import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.select.AffinityTable;

/**
 * The size of the session-affinity table, decided without I/O: the runtime settings published on
 * {@code route.settings} when they carry a usable TTL and capacity (both at least 1), else the
 * configured {@code gateway.affinity.*}.
 */
public record AffinitySettings(Duration ttl, int capacity) {

    /**
     * @param published the runtime settings held by the view; null until any were published
     */
    public static AffinitySettings effective(
            RuntimeSettingsSnapshot published, Duration configuredTtl, int configuredCapacity) {
        boolean usable = published != null && published.affinityTtlSeconds() >= 1 && published.affinityCapacity() >= 1;
        return usable
                ? new AffinitySettings(published.affinityTtl(), published.affinityCapacity())
                : new AffinitySettings(configuredTtl, configuredCapacity);
    }

    /** Whether {@code table} already has this size; otherwise it is rebuilt (its entries are lost). */
    public boolean fits(AffinityTable table) {
        return table.ttl().equals(ttl) && table.capacity() == capacity;
    }
}
