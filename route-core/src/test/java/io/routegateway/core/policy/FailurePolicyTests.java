package io.routegateway.core.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The spec's failure-policy table: defaults, bounds, partial input, and the forgiving read. */
class FailurePolicyTests {

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static void assertRefused(String policy) {
        assertThatThrownBy(() -> FailurePolicy.parse(json(policy)))
                .isInstanceOfSatisfying(
                        ValidationException.class,
                        e -> assertThat(e.code()).isEqualTo("validation.route_credential_failure_policy"));
    }

    @Test
    void defaultsAreRetryCount2Interval200Threshold10CooldownOff10sAndErrorStatusOn() {
        FailurePolicy defaults = FailurePolicy.DEFAULTS;
        assertThat(defaults.retryCount()).isEqualTo(2);
        assertThat(defaults.retryIntervalMs()).isEqualTo(200);
        assertThat(defaults.semanticErrorThreshold()).isEqualTo(10);
        assertThat(defaults.cooldownEnabled()).isFalse();
        assertThat(defaults.cooldownSeconds()).isEqualTo(10);
        assertThat(defaults.errorStatusEnabled()).isTrue();
        assertThat(defaults.effectiveCooldownSeconds()).isNull();
    }

    @Test
    void omittingThePolicyOrEveryFieldUsesAllDefaults() {
        assertThat(FailurePolicy.parse(null)).isEqualTo(FailurePolicy.DEFAULTS);
        assertThat(FailurePolicy.parse(json("null"))).isEqualTo(FailurePolicy.DEFAULTS);
        assertThat(FailurePolicy.parse(json("{}"))).isEqualTo(FailurePolicy.DEFAULTS);
        assertThat(FailurePolicy.fromConfigJson(json("{\"model_mappings\":[]}")))
                .isEqualTo(FailurePolicy.DEFAULTS);
    }

    @Test
    void supplyingSomeFieldsLeavesTheRestAtTheirDefaults() {
        FailurePolicy policy = FailurePolicy.parse(json("{\"retry_count\":5,\"cooldown_enabled\":true}"));
        assertThat(policy).isEqualTo(new FailurePolicy(5, 200, 10, true, 10, true));
        assertThat(policy.effectiveCooldownSeconds()).isEqualTo(10);
    }

    @Test
    void anExplicitFalseSwitchIsReadAsFalse() {
        FailurePolicy policy = FailurePolicy.parse(json("{\"cooldown_enabled\":false,\"error_status_enabled\":false}"));
        assertThat(policy).isEqualTo(new FailurePolicy(2, 200, 10, false, 10, false));
        assertThat(FailurePolicy.parse(json("{\"error_status_enabled\":true}")).errorStatusEnabled())
                .isTrue();
    }

    @ParameterizedTest(name = "{0} = {1} is accepted")
    @CsvSource({
        "retry_count, 0",
        "retry_count, 10",
        "retry_interval_ms, 0",
        "retry_interval_ms, 60000",
        "semantic_error_threshold, 1",
        "semantic_error_threshold, 1000",
        "cooldown_seconds, 1",
        "cooldown_seconds, 86400"
    })
    void valuesAtTheBoundsAreAccepted(String field, int value) {
        assertThat(fieldOf(FailurePolicy.parse(json("{\"" + field + "\":" + value + "}")), field))
                .isEqualTo(value);
    }

    @ParameterizedTest(name = "{0} = {1} is validation.route_credential_failure_policy")
    @CsvSource({
        "retry_count, -1",
        "retry_count, 11",
        "retry_interval_ms, -1",
        "retry_interval_ms, 60001",
        "semantic_error_threshold, 0",
        "semantic_error_threshold, 1001",
        "cooldown_seconds, 0",
        "cooldown_seconds, 86401"
    })
    void valuesOutsideTheBoundsAreRefused(String field, int value) {
        assertRefused("{\"" + field + "\":" + value + "}");
    }

    @ParameterizedTest(name = "{0} is refused")
    @ValueSource(
            strings = {
                "{\"retry_count\":\"2\"}",
                "{\"retry_count\":2.5}",
                "{\"retry_interval_ms\":99999999999}",
                "{\"cooldown_enabled\":\"yes\"}",
                "{\"error_status_enabled\":1}",
                "[1,2]",
                "\"policy\""
            })
    void wrongTypesAreRefusedWithTheSameCode(String policy) {
        assertRefused(policy);
    }

    @Test
    void theReadSideFallsBackToDefaultsForACorruptStoredPolicy() {
        assertThat(FailurePolicy.fromConfigJson(json("{\"failure_policy\":{\"retry_count\":99}}")))
                .isEqualTo(FailurePolicy.DEFAULTS);
        assertThat(FailurePolicy.fromConfigJson(json("{\"failure_policy\":\"x\"}")))
                .isEqualTo(FailurePolicy.DEFAULTS);
        assertThat(FailurePolicy.fromConfigJson(json("[]"))).isEqualTo(FailurePolicy.DEFAULTS);
        assertThat(FailurePolicy.fromConfigJson(json("{\"failure_policy\":{\"retry_count\":7}}"))
                        .retryCount())
                .isEqualTo(7);
    }

    private static int fieldOf(FailurePolicy policy, String field) {
        return switch (field) {
            case "retry_count" -> policy.retryCount();
            case "retry_interval_ms" -> policy.retryIntervalMs();
            case "semantic_error_threshold" -> policy.semanticErrorThreshold();
            case "cooldown_seconds" -> policy.cooldownSeconds();
            default -> throw new IllegalArgumentException(field);
        };
    }

    @Test
    void aMisspeltFieldIsRefusedInAWriteButIgnoredInAStoredPolicy() {
        assertThatThrownBy(() -> FailurePolicy.parse(json("{\"cooldown_second\":60}")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("failure_policy.cooldown_second")
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo("validation.unknown_field");
        assertThatThrownBy(() -> FailurePolicy.parse(json("{\"<b>x</b>\":1}")))
                .isInstanceOf(ValidationException.class)
                .hasMessageNotContaining("<b>");
        assertThat(FailurePolicy.fromConfigJson(json(
                                "{\"failure_policy\":{\"cooldown_seconds\":30,\"cooldown_enabled\":true,\"later\":1}}"))
                        .cooldownSeconds())
                .isEqualTo(30);
    }
}
