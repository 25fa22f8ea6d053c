package io.routegateway.state.group;

import java.util.List;

import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.Weights;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;

/**
 * The checks and the mapping of a group's input fields, without I/O: what a create stores and what
 * an update changes. {@link GroupAdminService} locks, checks room and references, and writes. Fields
 * are checked in the order of {@link GroupInput}, so a body with two bad fields is refused for the
 * first.
 */
public final class GroupRules {

    private GroupRules() {}

    /** Every field of a new group, checked. */
    public record NewGroup(
            String id,
            String name,
            boolean enabled,
            WeightMode weightMode,
            int weight,
            List<String> exposedModels,
            boolean affinityEnabled,
            BridgePolicy bridging,
            List<String> credentialIds) {}

    /**
     * What an update changes; null is "unchanged".
     *
     * @param weight the mode and weight after the update
     * @param credentialIds the whole new pool, or null when it stays
     */
    public record Changes(
            String name,
            Boolean enabled,
            Weights.Setting weight,
            List<String> exposedModels,
            Boolean affinityEnabled,
            BridgePolicy bridging,
            List<String> credentialIds) {}

    public static NewGroup create(JsonBody<GroupInput> body) {
        GroupInput input = body.value();
        String id = Inputs.idOrNew(input.id(), "grp");
        String name = Inputs.name(input.name());
        WeightMode mode = input.weightMode() == null ? WeightMode.AUTO : Inputs.weightMode(input.weightMode());
        Weights.requireWritable(mode, input.weight());
        int weight = input.weight() == null ? GroupSnapshot.DEFAULT_WEIGHT : input.weight();
        List<String> exposed = Inputs.models(input.exposedModels());
        BridgePolicy bridging =
                input.bridging() == null ? BridgePolicy.NATIVE_FIRST : Inputs.bridging(input.bridging());
        List<String> credentialIds =
                Inputs.ids(input.credentialIds(), AdminCodes.CREDENTIAL_IDS, Inputs.MAX_CREDENTIAL_IDS);
        return new NewGroup(
                id,
                name,
                input.enabled() == null || input.enabled(),
                mode,
                weight,
                exposed,
                Boolean.TRUE.equals(input.affinityEnabled()),
                bridging,
                credentialIds);
    }

    /**
     * @param storedMode the stored weight mode
     * @param storedWeight the stored weight
     */
    public static Changes update(WeightMode storedMode, int storedWeight, JsonBody<GroupInput> body) {
        GroupInput input = body.value();
        String name = body.has("name") ? Inputs.name(input.name()) : null;
        WeightMode sentMode = input.weightMode() == null ? null : Inputs.weightMode(input.weightMode());
        Weights.Setting weight = Weights.afterUpdate(storedMode, storedWeight, sentMode, input.weight());
        List<String> exposed = body.has("exposed_models") ? Inputs.models(input.exposedModels()) : null;
        BridgePolicy bridging = input.bridging() == null ? null : Inputs.bridging(input.bridging());
        List<String> credentialIds = body.has("credential_ids")
                ? Inputs.ids(input.credentialIds(), AdminCodes.CREDENTIAL_IDS, Inputs.MAX_CREDENTIAL_IDS)
                : null;
        return new Changes(name, input.enabled(), weight, exposed, input.affinityEnabled(), bridging, credentialIds);
    }
}
