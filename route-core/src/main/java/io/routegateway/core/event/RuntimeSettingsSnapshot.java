package io.routegateway.core.event;

import java.time.Duration;
import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Type {@code runtime-settings.v1} on {@link Topics#SETTINGS}, always keyed {@link #KEY}: the runtime
 * settings the gateways apply (model prices stay with state-service). One snapshot is the whole
 * state; a higher version replaces a lower one.
 *
 * @param blacklistThreshold consecutive transient failures an account tolerates: one more flips it to error; 0 = off
 * @param affinityTtlSeconds lifetime of a session-affinity entry
 * @param affinityCapacity affinity entries kept per gateway
 */
public record RuntimeSettingsSnapshot(
        long version, int blacklistThreshold, long affinityTtlSeconds, int affinityCapacity, Instant publishedAt) {

    public static final String TYPE = "runtime-settings.v1";
    /** The one key of {@link Topics#SETTINGS}. */
    public static final String KEY = "runtime";

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }

    public Duration affinityTtl() {
        return Duration.ofSeconds(affinityTtlSeconds);
    }
}
