package io.routegateway.state.settings;

import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.RuntimeSettings;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The runtime settings update without a database: one row per refused body (field, body, code). */
class SettingsRulesTests {

    private static final String NUL = "\\u0000";
    /** As long a key as the JSON parser reads (its name limit is 50,000). */
    private static final String HUGE_KEY = "x".repeat(40_000);

    static Stream<Arguments> refused() {
        return Stream.of(
                arguments("body", "[]", AdminCodes.MALFORMED_JSON),
                arguments("body", "\"blacklist_threshold\"", AdminCodes.MALFORMED_JSON),
                arguments("body", "7", AdminCodes.MALFORMED_JSON),
                arguments("body", "null", AdminCodes.MALFORMED_JSON),
                arguments(
                        "blacklist_threshold",
                        "{\"blacklist_threshold\":-1}",
                        RuntimeSettings.BLACKLIST_THRESHOLD_CODE),
                arguments(
                        "blacklist_threshold",
                        "{\"blacklist_threshold\":1001}",
                        RuntimeSettings.BLACKLIST_THRESHOLD_CODE),
                arguments(
                        "blacklist_threshold",
                        "{\"blacklist_threshold\":\"5\"}",
                        RuntimeSettings.BLACKLIST_THRESHOLD_CODE),
                arguments(
                        "blacklist_threshold",
                        "{\"blacklist_threshold\":2.5}",
                        RuntimeSettings.BLACKLIST_THRESHOLD_CODE),
                arguments(
                        "blacklist_threshold",
                        "{\"blacklist_threshold\":null}",
                        RuntimeSettings.BLACKLIST_THRESHOLD_CODE),
                arguments(
                        "blacklist_threshold",
                        "{\"blacklist_threshold\":99999999999}",
                        RuntimeSettings.BLACKLIST_THRESHOLD_CODE),
                arguments("affinity_ttl_seconds", "{\"affinity_ttl_seconds\":0}", RuntimeSettings.AFFINITY_TTL_CODE),
                arguments(
                        "affinity_ttl_seconds",
                        "{\"affinity_ttl_seconds\":" + (RuntimeSettings.MAX_AFFINITY_TTL_SECONDS + 1) + "}",
                        RuntimeSettings.AFFINITY_TTL_CODE),
                arguments("affinity_ttl_seconds", "{\"affinity_ttl_seconds\":true}", RuntimeSettings.AFFINITY_TTL_CODE),
                arguments("affinity_capacity", "{\"affinity_capacity\":0}", RuntimeSettings.AFFINITY_CAPACITY_CODE),
                arguments(
                        "affinity_capacity",
                        "{\"affinity_capacity\":" + (RuntimeSettings.MAX_AFFINITY_CAPACITY + 1) + "}",
                        RuntimeSettings.AFFINITY_CAPACITY_CODE),
                arguments("affinity_capacity", "{\"affinity_capacity\":[1]}", RuntimeSettings.AFFINITY_CAPACITY_CODE),
                arguments(
                        "model_prices",
                        "{\"model_prices\":{\"m\":{\"input_per_million\":-1,\"output_per_million\":1}}}",
                        "validation.model_prices"),
                arguments("model_prices", "{\"model_prices\":\"cheap\"}", "validation.model_prices"),
                arguments("unknown", "{\"colour\":\"blue\"}", RuntimeSettings.UNKNOWN_SETTING_CODE),
                arguments("unknown", "{\"col" + NUL + "our\":1}", RuntimeSettings.UNKNOWN_SETTING_CODE),
                arguments("unknown", "{\"" + HUGE_KEY + "\":1}", RuntimeSettings.UNKNOWN_SETTING_CODE),
                // one bad field refuses the update even after a good one
                arguments(
                        "blacklist_threshold",
                        "{\"affinity_capacity\":77,\"blacklist_threshold\":-1}",
                        RuntimeSettings.BLACKLIST_THRESHOLD_CODE));
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @MethodSource
    void refused(String field, String body, String code) throws Exception {
        JsonNode patch = Json.MAPPER.readTree(body);
        assertThatThrownBy(() -> SettingsRules.update(RuntimeSettings.DEFAULTS, patch))
                .satisfiesAnyOf(
                        e -> assertThat(e).isInstanceOfSatisfying(AdminException.class, refusal -> {
                            assertThat(refusal.code()).isEqualTo(code);
                            assertThat(refusal.status()).isEqualTo(400);
                        }),
                        e -> assertThat(e)
                                .isInstanceOfSatisfying(
                                        ValidationException.class,
                                        refusal -> assertThat(refusal.code()).isEqualTo(code)))
                .satisfies(e -> assertThat(e.getMessage())
                        .hasSizeLessThan(300)
                        .doesNotContain("\u0000")
                        .doesNotContain("xxxxxxxx"));
    }

    @Test
    void aBodyThatIsNotAnObjectIsMalformedBeforeAnythingIsRead() {
        assertThatThrownBy(() -> SettingsRules.requireObject(null))
                .isInstanceOfSatisfying(
                        AdminException.class, e -> assertThat(e.code()).isEqualTo(AdminCodes.MALFORMED_JSON))
                .hasMessage("the body must be a JSON object");
        assertThatThrownBy(() -> SettingsRules.requireObject(JsonNodeFactory.instance.arrayNode()))
                .isInstanceOfSatisfying(
                        AdminException.class, e -> assertThat(e.code()).isEqualTo(AdminCodes.MALFORMED_JSON));
        JsonNode object = JsonNodeFactory.instance.objectNode();
        assertThat(SettingsRules.requireObject(object)).isSameAs(object);
    }

    @Test
    void anUpdateChangesOnlyWhatWasSentAndStoresEveryRow() throws Exception {
        RuntimeSettings current = new RuntimeSettings(3, 120, 50, RuntimeSettings.DEFAULTS.modelPrices());
        SettingsRules.Update update = SettingsRules.update(
                current,
                Json.MAPPER.readTree("{\"blacklist_threshold\":5,"
                        + "\"model_prices\":{\"sol\":{\"input_per_million\":1.25,\"output_per_million\":10}}}"));
        assertThat(update.next().blacklistThreshold()).isEqualTo(5);
        assertThat(update.next().affinityTtlSeconds()).isEqualTo(120);
        assertThat(update.next().affinityCapacity()).isEqualTo(50);
        assertThat(update.next()
                        .modelPrices()
                        .toJson()
                        .path("sol")
                        .path("input_per_million")
                        .asDouble())
                .isEqualTo(1.25);
        assertThat(update.rows())
                .containsOnlyKeys(RuntimeSettings.KEYS)
                .containsEntry(RuntimeSettings.BLACKLIST_THRESHOLD, "5")
                .containsEntry(RuntimeSettings.AFFINITY_TTL_SECONDS, "120")
                .containsEntry(RuntimeSettings.AFFINITY_CAPACITY, "50");
        assertThat(RuntimeSettings.fromStored(update.rows())).isEqualTo(update.next());

        SettingsRules.Update nothing = SettingsRules.update(current, Json.MAPPER.readTree("{}"));
        assertThat(nothing.next()).isEqualTo(current);
    }
}
