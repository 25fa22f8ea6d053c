package io.routegateway.state.group;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Body of creating or updating (only the fields sent change) a group.
 *
 * @param id optional on create, generated when absent; ignored on update
 * @param weightMode {@code auto} (the default weight) or {@code manual}
 * @param weight manual weight 1..100; 0 is refused with {@code validation.weight}
 * @param exposedModels models the group exposes; empty = every model its credentials serve
 * @param bridging {@code native_first} (default: credentials of another protocol serve through a
 *     protocol bridge only when no native one is eligible), {@code any} (native and bridged alike) or
 *     {@code native_only} (no conversion: {@code native_route_required})
 * @param credentialIds the group's pool
 */
@Schema(name = "GroupInput")
public record GroupInput(
        String id,
        String name,
        Boolean enabled,
        @Schema(enumeration = {"auto", "manual"}) String weightMode,
        Integer weight,
        List<String> exposedModels,
        Boolean affinityEnabled,

        @Schema(enumeration = {"native_first", "any", "native_only"})
        String bridging,

        List<String> credentialIds) {}
