package io.routegateway.core.event;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.WeightMode;

/**
 * Type {@code group.v1} on {@link Topics#GROUPS}, keyed by group id.
 *
 * @param exposedModels models the group exposes; empty = every model its credentials serve
 * @param weight manual weight 1..100; legacy 0 is reported as {@code group_weight_zero}
 * @param affinityEnabled session affinity for requests routed through this group
 * @param bridging whether and how credentials of another protocol serve requests through a protocol
 *     bridge; optional within {@code .v1} (absent = {@link BridgePolicy#NATIVE_FIRST})
 */
public record GroupSnapshot(
        String groupId,
        long version,
        String name,
        boolean enabled,
        WeightMode weightMode,
        int weight,
        List<String> exposedModels,
        boolean affinityEnabled,
        BridgePolicy bridging,
        Instant publishedAt) {

    public static final String TYPE = "group.v1";
    /** Group automatic mode uses the default weight. */
    public static final int DEFAULT_WEIGHT = 100;

    public GroupSnapshot {
        exposedModels = exposedModels == null ? List.of() : List.copyOf(exposedModels);
        weightMode = weightMode == null ? WeightMode.AUTO : weightMode;
        bridging = bridging == null ? BridgePolicy.NATIVE_FIRST : bridging;
    }

    /** A group with the default {@link BridgePolicy#NATIVE_FIRST}. */
    public GroupSnapshot(
            String groupId,
            long version,
            String name,
            boolean enabled,
            WeightMode weightMode,
            int weight,
            List<String> exposedModels,
            boolean affinityEnabled,
            Instant publishedAt) {
        this(groupId, version, name, enabled, weightMode, weight, exposedModels, affinityEnabled, null, publishedAt);
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }

    public int effectiveWeight() {
        return weightMode == WeightMode.AUTO ? DEFAULT_WEIGHT : weight;
    }
}
