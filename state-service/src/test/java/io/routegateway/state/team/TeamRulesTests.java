package io.routegateway.state.team;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.JsonBody;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TeamRulesTests {

    @Test
    void aNewTeamHasWeightOneAndNoLimitsUnlessSent() {
        TeamRules.NewTeam team = TeamRules.create(body("{\"name\":\"  Research  \"}"));
        assertThat(team.id()).matches("team-[a-z0-9]{12}");
        assertThat(team.name()).isEqualTo("Research");
        assertThat(team.limits()).isEqualTo(Limits.NONE);
        assertThat(team.weight()).isEqualTo(1);

        TeamRules.NewTeam full = TeamRules.create(body("{\"id\":\"team.r-1\",\"name\":\"R\",\"weight\":1000,"
                + "\"limits\":{\"rpm_limit\":600,\"tpm_limit\":200000,\"max_parallel_requests\":20,"
                + "\"max_budget\":50.50,\"budget_duration\":\"1mo\"}}"));
        assertThat(full.id()).isEqualTo("team.r-1");
        assertThat(full.weight()).isEqualTo(1000);
        assertThat(full.limits())
                .isEqualTo(new Limits(600, 200_000L, 20, new BigDecimal("50.5"), BudgetDuration.MONTH));
    }

    @Test
    void anUpdateChangesOnlyWhatIsSentAndNullLimitsRemoveThem() {
        TeamRules.Changes none = TeamRules.update("team-a", body("{}"));
        assertThat(none).isEqualTo(new TeamRules.Changes(null, null, null));
        TeamRules.Changes cleared = TeamRules.update("team-a", body("{\"id\":\"team-a\",\"limits\":null}"));
        assertThat(cleared).isEqualTo(new TeamRules.Changes(null, Limits.NONE, null));
        TeamRules.Changes weight = TeamRules.update("team-a", body("{\"weight\":7,\"name\":\"n\"}"));
        assertThat(weight).isEqualTo(new TeamRules.Changes("n", null, 7));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("no name", "{}", "validation.name"),
                Arguments.of("a NUL in the name", "{\"name\":\"a\\u0000b\"}", "validation.name"),
                Arguments.of("a line break in the name", "{\"name\":\"a\\nb\"}", "validation.name"),
                Arguments.of("a name over 200 characters", "{\"name\":\"" + "n".repeat(201) + "\"}", "validation.name"),
                Arguments.of("a malformed id", "{\"id\":\"<script>\",\"name\":\"n\"}", "validation.id"),
                Arguments.of(
                        "an id over 64 characters",
                        "{\"id\":\"" + "i".repeat(65) + "\",\"name\":\"n\"}",
                        "validation.id"),
                Arguments.of("weight 0", "{\"name\":\"n\",\"weight\":0}", "validation.team_weight"),
                Arguments.of("weight -1", "{\"name\":\"n\",\"weight\":-1}", "validation.team_weight"),
                Arguments.of("weight 1001", "{\"name\":\"n\",\"weight\":1001}", "validation.team_weight"),
                Arguments.of("weight null", "{\"name\":\"n\",\"weight\":null}", "validation.team_weight"),
                Arguments.of("weight as text", "{\"name\":\"n\",\"weight\":\"5\"}", "validation.field_type"),
                Arguments.of("a fractional weight", "{\"name\":\"n\",\"weight\":1.5}", "validation.field_type"),
                Arguments.of(
                        "a huge weight", "{\"name\":\"n\",\"weight\":99999999999999999999}", "validation.field_type"),
                Arguments.of("limits not an object", "{\"name\":\"n\",\"limits\":[1]}", "validation.limits"),
                Arguments.of("rpm_limit 0", "{\"name\":\"n\",\"limits\":{\"rpm_limit\":0}}", "validation.limits"),
                Arguments.of(
                        "a negative tpm_limit", "{\"name\":\"n\",\"limits\":{\"tpm_limit\":-5}}", "validation.limits"),
                Arguments.of(
                        "a huge tpm_limit", "{\"name\":\"n\",\"limits\":{\"tpm_limit\":1e30}}", "validation.limits"),
                Arguments.of(
                        "rpm_limit as text", "{\"name\":\"n\",\"limits\":{\"rpm_limit\":\"5\"}}", "validation.limits"),
                Arguments.of(
                        "a negative budget", "{\"name\":\"n\",\"limits\":{\"max_budget\":-0.01}}", "validation.limits"),
                Arguments.of(
                        "a budget over a billion",
                        "{\"name\":\"n\",\"limits\":{\"max_budget\":1000000000.01}}",
                        "validation.limits"),
                Arguments.of(
                        "a budget finer than a micro-USD",
                        "{\"name\":\"n\",\"limits\":{\"max_budget\":0.0000001}}",
                        "validation.limits"),
                Arguments.of(
                        "an unknown duration",
                        "{\"name\":\"n\",\"limits\":{\"max_budget\":1,\"budget_duration\":\"2d\"}}",
                        "validation.limits"),
                Arguments.of(
                        "a duration without a budget",
                        "{\"name\":\"n\",\"limits\":{\"budget_duration\":\"1d\"}}",
                        "validation.limits"),
                Arguments.of("an unknown limit", "{\"name\":\"n\",\"limits\":{\"rpm\":5}}", "validation.limits"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aBadFieldIsRefusedWithItsCode(String what, String json, String code) {
        assertThatThrownBy(() -> TeamRules.create(body(json)))
                .satisfies(refusal -> assertThat(code(refusal)).isEqualTo(code));
    }

    @Test
    void aMisspeltOrUnknownFieldIsRefusedAndOnlyAPlainNameIsEchoed() {
        assertThatThrownBy(() -> body("{\"name\":\"n\",\"wieght\":5}"))
                .isInstanceOfSatisfying(AdminException.class, refusal -> {
                    assertThat(refusal.code()).isEqualTo("validation.unknown_field");
                    assertThat(refusal.getMessage()).contains("wieght");
                });
        assertThatThrownBy(() -> body("{\"name\":\"n\",\"<img src=x>\":5}"))
                .isInstanceOfSatisfying(AdminException.class, refusal -> {
                    assertThat(refusal.code()).isEqualTo("validation.unknown_field");
                    assertThat(refusal.getMessage()).doesNotContain("<img");
                });
    }

    @Test
    void anUpdateMayNotChangeTheId() {
        assertThatThrownBy(() -> TeamRules.update("team-a", body("{\"id\":\"team-b\"}")))
                .isInstanceOfSatisfying(
                        AdminException.class,
                        refusal -> assertThat(refusal.code()).isEqualTo("validation.id"));
        assertThatThrownBy(() -> TeamRules.update("team-a", body("{\"id\":null}")))
                .isInstanceOf(AdminException.class);
    }

    @Test
    void theCursorNamesTheLastTeamOfAPage() {
        TeamRules.Cursor cursor = TeamRules.Cursor.after(Instant.parse("2026-12-15T10:20:30.123456Z"), "team-a");
        assertThat(cursor.toString()).isEqualTo("1797330030123456_team-a");
        assertThat(TeamRules.cursor(cursor.toString())).isEqualTo(cursor);
        assertThat(TeamRules.cursor(null)).isNull();
        for (String bad : new String[] {"x", "12", "12_", "_team", "12_<b>", "1.5_team"}) {
            assertThatThrownBy(() -> TeamRules.cursor(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            AdminException.class,
                            refusal -> assertThat(refusal.code()).isEqualTo("validation.query"));
        }
    }

    private static String code(Throwable refusal) {
        if (refusal instanceof AdminException admin) {
            return admin.code();
        }
        return ((ValidationException) refusal).code();
    }

    private static JsonBody<TeamInput> body(String json) {
        try {
            JsonNode node = Json.MAPPER.readTree(json);
            return JsonBody.read(node, TeamInput.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
