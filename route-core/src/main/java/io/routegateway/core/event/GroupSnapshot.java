package io.routegateway.core.event;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.model.WeightMode;

/**
 * Type {@code group.v1} on {@link Topics#GROUPS}, keyed by group id.
 *
 * @param exposedModels models the group exposes; empty = every model its credentials serve
 * @param weight manual weight 1..100; legacy 0 is reported as {@code group_weight_zero}
 * @param affinityEnabled session affinity for requests routed through this group
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
        Instant publishedAt) {

    public static final String TYPE = "group.v1";
    /** Group automatic mode uses the default weight. */
    public static final int DEFAULT_WEIGHT = 100;

    public GroupSnapshot {
        exposedModels = exposedModels == null ? List.of() : List.copyOf(exposedModels);
        weightMode = weightMode == null ? WeightMode.AUTO : weightMode;
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }

    public int effectiveWeight() {
        return weightMode == WeightMode.AUTO ? DEFAULT_WEIGHT : weight;
    }
}
