package io.routegateway.core.limits;

import java.math.BigDecimal;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LimitsTests {

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Limits parse(String text) {
        return Limits.parse(json(text));
    }

    @Test
    void allFiveFieldsParse() {
        Limits limits = parse(
                "{\"rpm_limit\":600,\"tpm_limit\":200000,\"max_parallel_requests\":20,\"max_budget\":50.5,\"budget_duration\":\"1mo\"}");
        assertThat(limits).isEqualTo(new Limits(600, 200_000L, 20, new BigDecimal("50.5"), BudgetDuration.MONTH));
        assertThat(limits.maxBudgetMicros()).isEqualTo(50_500_000L);
    }

    @Test
    void absentNullAndEmptyAreNone() {
        assertThat(Limits.parse(null)).isEqualTo(Limits.NONE);
        assertThat(parse("null")).isEqualTo(Limits.NONE);
        assertThat(parse("{}")).isEqualTo(Limits.NONE);
        assertThat(parse("{\"rpm_limit\":null,\"max_budget\":null}").isNone()).isTrue();
    }

    @Test
    void zeroBudgetIsABudgetOfNothing() {
        Limits limits = parse("{\"max_budget\":0}");
        assertThat(limits.maxBudgetMicros()).isZero();
        assertThat(limits.isNone()).isFalse();
    }

    @Test
    void aBudgetWithoutDurationIsLifetime() {
        assertThat(parse("{\"max_budget\":1}").budgetDuration()).isNull();
    }

    @Test
    void theLargestValuesAreAccepted() {
        Limits limits = parse("{\"rpm_limit\":10000000,\"tpm_limit\":1000000000000,\"max_parallel_requests\":100000,"
                + "\"max_budget\":1000000000,\"budget_duration\":\"1h\"}");
        assertThat(limits.maxBudgetMicros()).isEqualTo(1_000_000_000_000_000L);
    }

    @Test
    void sixDecimalsAreKeptAndTrailingZerosDoNotCount() {
        assertThat(parse("{\"max_budget\":0.000001}").maxBudgetMicros()).isEqualTo(1);
        assertThat(parse("{\"max_budget\":1.2345600000}").maxBudgetMicros()).isEqualTo(1_234_560);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[]",
                "\"rpm_limit\"",
                "42",
                "true",
                "{\"rpm\":10}",
                "{\"RPM_LIMIT\":10}",
                "{\"rpm_limit\\u0000\":10}",
                "{\"rpm_limit\":10,\"extra\":null}",
                "{\"rpm_limit\":\"10\"}",
                "{\"rpm_limit\":10.0}",
                "{\"rpm_limit\":1e2}",
                "{\"rpm_limit\":true}",
                "{\"rpm_limit\":[10]}",
                "{\"rpm_limit\":{}}",
                "{\"rpm_limit\":0}",
                "{\"rpm_limit\":-1}",
                "{\"rpm_limit\":10000001}",
                "{\"rpm_limit\":99999999999999999999999999}",
                "{\"tpm_limit\":0}",
                "{\"tpm_limit\":1000000000001}",
                "{\"tpm_limit\":\"1000\"}",
                "{\"max_parallel_requests\":0}",
                "{\"max_parallel_requests\":100001}",
                "{\"max_parallel_requests\":2147483648}",
                "{\"max_budget\":-0.01}",
                "{\"max_budget\":\"5\"}",
                "{\"max_budget\":true}",
                "{\"max_budget\":1000000000.000001}",
                "{\"max_budget\":1e400}",
                "{\"max_budget\":-1e400}",
                "{\"max_budget\":0.0000001}",
                "{\"max_budget\":1.1234567}",
                "{\"budget_duration\":\"1mo\"}",
                "{\"max_budget\":null,\"budget_duration\":\"1d\"}",
                "{\"max_budget\":5,\"budget_duration\":\"1m\"}",
                "{\"max_budget\":5,\"budget_duration\":\"1MO\"}",
                "{\"max_budget\":5,\"budget_duration\":\"1h\\u0000\"}",
                "{\"max_budget\":5,\"budget_duration\":\"\"}",
                "{\"max_budget\":5,\"budget_duration\":30}",
                "{\"max_budget\":5,\"budget_duration\":[\"1d\"]}",
            })
    void hostileLimitsAreValidationLimits(String text) {
        assertThatThrownBy(() -> parse(text))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo("validation.limits");
    }

    @Test
    void refusalsNeverEchoTheClientsText() {
        assertThatThrownBy(() -> parse("{\"max_budget\":5,\"budget_duration\":\"<script>secret\"}"))
                .isInstanceOf(ValidationException.class)
                .message()
                .doesNotContain("secret")
                .doesNotContain("<script>");
        assertThatThrownBy(() -> parse("{\"secret-field\":1}")).message().doesNotContain("secret-field");
    }

    @Test
    void theConstructorHoldsTheSameBounds() {
        assertThatThrownBy(() -> new Limits(0, null, null, null, null)).isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> new Limits(null, null, null, null, BudgetDuration.DAY))
                .isInstanceOf(ValidationException.class);
        assertThatThrownBy(() -> new Limits(null, null, null, new BigDecimal("0.0000001"), null))
                .isInstanceOf(ValidationException.class);
    }

    @Test
    void theJsonFormRoundTrips() {
        Limits limits = new Limits(1, 2L, 3, new BigDecimal("4.5"), BudgetDuration.THIRTY_DAYS);
        assertThat(Limits.parse(limits.toJson())).isEqualTo(limits);
        assertThat(Limits.NONE.toJson().size()).isEqualTo(5);
        assertThat(Limits.parse(Limits.NONE.toJson())).isEqualTo(Limits.NONE);
    }

    @Test
    void tighterTakesTheSmallerOfEachRateFieldAndKeepsOnlyItsOwnBudget() {
        Limits key = new Limits(100, null, 5, new BigDecimal("10"), BudgetDuration.DAY);
        Limits team = new Limits(50, 1000L, 8, new BigDecimal("1"), BudgetDuration.MONTH);
        assertThat(key.tighter(team)).isEqualTo(new Limits(50, 1000L, 5, new BigDecimal("10"), BudgetDuration.DAY));
        assertThat(key.tighter(null)).isEqualTo(key);
        assertThat(Limits.NONE.tighter(team)).isEqualTo(new Limits(50, 1000L, 8, null, null));
    }

    @Test
    void credentialLimitsTakeOnlyTheirTwoFields() {
        assertThat(CredentialLimits.parse(json("{\"rpm_limit\":60,\"max_parallel_requests\":4}")))
                .isEqualTo(new CredentialLimits(60, 4));
        assertThat(CredentialLimits.parse(json("null"))).isEqualTo(CredentialLimits.NONE);
        for (String hostile : new String[] {
            "{\"tpm_limit\":5}",
            "{\"max_budget\":1}",
            "{\"rpm_limit\":0}",
            "{\"rpm_limit\":\"60\"}",
            "{\"max_parallel_requests\":100001}",
            "{\"max_parallel_requests\":1.5}",
            "[]"
        }) {
            assertThatThrownBy(() -> CredentialLimits.parse(json(hostile)))
                    .as(hostile)
                    .isInstanceOf(ValidationException.class)
                    .extracting(e -> ((ValidationException) e).code())
                    .isEqualTo("validation.limits");
        }
    }

    @Test
    void theDefaultsFillEachRateFieldAKeyLeavesUnsetAndNeverItsBudget() {
        Limits defaults = new Limits(600, 1_000_000L, 20, BigDecimal.TEN, null);
        assertThat(Limits.NONE.withDefaults(defaults)).isEqualTo(new Limits(600, 1_000_000L, 20, null, null));
        Limits own = new Limits(5_000, null, 2, BigDecimal.ONE, BudgetDuration.fromWire("30d"));
        assertThat(own.withDefaults(defaults))
                .as("a field the key sets is its own, looser or tighter")
                .isEqualTo(new Limits(5_000, 1_000_000L, 2, BigDecimal.ONE, BudgetDuration.fromWire("30d")));
        assertThat(own.withDefaults(Limits.NONE)).isSameAs(own);
        assertThat(own.withDefaults(null)).isSameAs(own);
    }

    @Test
    void beyondNamesTheFieldsLooserThanTheCeiling() {
        Limits team = parse("{\"rpm_limit\":600,\"tpm_limit\":1000,\"max_budget\":50}");
        assertThat(parse("{\"rpm_limit\":600,\"tpm_limit\":999,\"max_budget\":50}")
                        .beyond(team))
                .isEmpty();
        // a field the key leaves open takes the team's anyway
        assertThat(Limits.NONE.beyond(team)).isEmpty();
        // a field the team leaves open is the key's own
        assertThat(parse("{\"max_parallel_requests\":100000}").beyond(team)).isEmpty();
        assertThat(parse("{\"rpm_limit\":601,\"tpm_limit\":2000,\"max_budget\":50.000001}")
                        .beyond(team))
                .containsExactly("rpm_limit", "tpm_limit", "max_budget");
        assertThat(parse("{\"rpm_limit\":601}").beyond(null)).isEmpty();
        assertThat(parse("{\"rpm_limit\":601}").beyond(Limits.NONE)).isEmpty();
    }
}
