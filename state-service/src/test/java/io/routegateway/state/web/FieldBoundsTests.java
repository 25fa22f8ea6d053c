package io.routegateway.state.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.policy.ValidationCodes;
import io.routegateway.core.policy.Weights;
import io.routegateway.state.credential.CredentialRules;
import io.routegateway.state.team.TeamRules;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console checks numeric fields before sending them, with the bounds and codes of its table
 * {@code console/src/fieldBounds.json}: that table must say exactly what this service enforces, so
 * the form never refuses what the API accepts, nor accepts (or clamps) what the API refuses.
 */
class FieldBoundsTests {

    private static final Path TABLE = Path.of("..", "console", "src", "fieldBounds.json");

    private record Bound(int min, int max, String code) {}

    private static final Map<String, Bound> ENFORCED = Map.of(
            "weight", new Bound(Weights.MIN_MANUAL, Weights.MAX_MANUAL, ValidationCodes.WEIGHT),
            "priority", new Bound(CredentialRules.MIN_PRIORITY, CredentialRules.MAX_PRIORITY, AdminCodes.PRIORITY),
            "failure_policy.retry_count", new Bound(0, FailurePolicy.MAX_RETRY_COUNT, ValidationCodes.FAILURE_POLICY),
            "failure_policy.retry_interval_ms",
                    new Bound(0, FailurePolicy.MAX_RETRY_INTERVAL_MS, ValidationCodes.FAILURE_POLICY),
            "failure_policy.semantic_error_threshold",
                    new Bound(1, FailurePolicy.MAX_SEMANTIC_ERROR_THRESHOLD, ValidationCodes.FAILURE_POLICY),
            "failure_policy.cooldown_seconds",
                    new Bound(1, FailurePolicy.MAX_COOLDOWN_SECONDS, ValidationCodes.FAILURE_POLICY),
            "team.weight", new Bound(TeamRules.MIN_WEIGHT, TeamRules.MAX_WEIGHT, AdminCodes.TEAM_WEIGHT));

    @Test
    void theConsolesTableIsTheServicesBounds() throws IOException {
        JsonNode table = Json.MAPPER.readTree(Files.readString(TABLE));
        assertThat(table.size())
                .as("no field in the table the service does not bound")
                .isEqualTo(ENFORCED.size());
        ENFORCED.forEach((field, bound) -> {
            JsonNode entry = table.path(field);
            assertThat(entry.isObject()).as(field + " in " + TABLE).isTrue();
            assertThat(entry.path("min").asInt()).as(field + " min").isEqualTo(bound.min());
            assertThat(entry.path("max").asInt()).as(field + " max").isEqualTo(bound.max());
            assertThat(entry.path("code").asText()).as(field + " code").isEqualTo(bound.code());
        });
    }
}
