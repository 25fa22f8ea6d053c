package io.routegateway.state.team;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.limits.Limits;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Body of creating or updating (only the fields sent change) a team. Any other field is refused
 * ({@code validation.unknown_field}).
 *
 * @param id optional on create ({@code [A-Za-z0-9][A-Za-z0-9._-]{0,63}}), generated when absent; on
 *     update it may only repeat the path's id
 * @param limits {@code {"rpm_limit", "tpm_limit", "max_parallel_requests", "max_budget",
 *     "budget_duration"}}, each optional, null = no limit; null or absent = none (on update: null
 *     removes them all, an object replaces them all)
 * @param weight the team's share of a contended pool relative to other teams', 1..1000 (default 1)
 */
@Schema(name = "TeamInput")
public record TeamInput(
        String id,
        String name,
        @Schema(implementation = Limits.class) JsonNode limits,
        Integer weight) {}
