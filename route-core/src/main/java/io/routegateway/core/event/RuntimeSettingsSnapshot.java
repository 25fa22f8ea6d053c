package io.routegateway.core.event;

import java.time.Duration;
import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.usage.ModelPrices;

/**
 * Type {@code runtime-settings.v1} on {@link Topics#SETTINGS}, always keyed {@link #KEY}: the runtime
 * settings the gateways apply. One snapshot is the whole state; a higher version replaces a lower one.
 *
 * @param blacklistThreshold consecutive transient failures an account tolerates: one more flips it to error; 0 = off
 * @param affinityTtlSeconds lifetime of a session-affinity entry
 * @param affinityCapacity affinity entries kept per gateway
 * @param modelPrices the {@code model_prices} setting in its stored form ({@link ModelPrices#toJson}),
 *     by which the gateways price closed requests against budgets; optional on the wire (null = none)
 */
public record RuntimeSettingsSnapshot(
        long version,
        int blacklistThreshold,
        long affinityTtlSeconds,
        int affinityCapacity,
        Instant publishedAt,
        JsonNode modelPrices) {

    /** Settings without model prices. */
    public RuntimeSettingsSnapshot(
            long version, int blacklistThreshold, long affinityTtlSeconds, int affinityCapacity, Instant publishedAt) {
        this(version, blacklistThreshold, affinityTtlSeconds, affinityCapacity, publishedAt, null);
    }

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

    /** The model prices, read forgivingly: absent or unreadable is {@link ModelPrices#NONE}. */
    @JsonIgnore
    public ModelPrices prices() {
        if (modelPrices == null || modelPrices.isNull()) {
            return ModelPrices.NONE;
        }
        try {
            return ModelPrices.parse(modelPrices);
        } catch (RuntimeException e) {
            return ModelPrices.NONE;
        }
    }
}
