package io.routegateway.state.settings;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.policy.RuntimeSettings;

/**
 * The runtime settings.
 *
 * @param blacklistThreshold consecutive transient failures an account tolerates: one more flips it to error; 0 = off
 * @param affinityTtlSeconds lifetime of a session-affinity entry
 * @param affinityCapacity affinity entries per gateway
 * @param modelPrices model → {@code {input_per_million, output_per_million}} in USD
 */
public record SettingsView(
        int blacklistThreshold, long affinityTtlSeconds, int affinityCapacity, JsonNode modelPrices) {

    static SettingsView of(RuntimeSettings settings) {
        return new SettingsView(
                settings.blacklistThreshold(),
                settings.affinityTtlSeconds(),
                settings.affinityCapacity(),
                settings.modelPrices().toJson());
    }
}
