package io.routegateway.core.event;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.limits.Limits;

/**
 * Type {@code team.v1} on {@link Topics#TEAMS}, keyed by team id: what every gateway replica needs
 * to admit a team's requests.
 *
 * @param limits the team's limits; {@link Limits#NONE} when it has none
 * @param weight the team's share of a contended pool relative to other teams', 1..1000
 */
public record TeamSnapshot(String teamId, long version, String name, Limits limits, int weight, Instant publishedAt) {

    public static final String TYPE = "team.v1";
    public static final int DEFAULT_WEIGHT = 1;

    public TeamSnapshot {
        limits = limits == null ? Limits.NONE : limits;
        weight = weight <= 0 ? DEFAULT_WEIGHT : weight;
    }

    @JsonProperty(value = "type", access = JsonProperty.Access.READ_ONLY)
    public String type() {
        return TYPE;
    }
}
