package io.routegateway.core.policy;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.usage.ModelPrices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RuntimeSettingsTests {

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void defaultsAreBlacklistOffAndTenThousandAffinityEntries() {
        assertThat(RuntimeSettings.DEFAULTS.blacklistThreshold()).isZero();
        assertThat(RuntimeSettings.DEFAULTS.affinityCapacity()).isEqualTo(10_000);
        assertThat(RuntimeSettings.DEFAULTS.modelPrices()).isEqualTo(ModelPrices.NONE);
    }

    @Test
    void patchReplacesOnlyTheFieldsSent() {
        RuntimeSettings next = RuntimeSettings.DEFAULTS.withPatch(json("{\"blacklist_threshold\":5}"));
        assertThat(next.blacklistThreshold()).isEqualTo(5);
        assertThat(next.affinityTtlSeconds()).isEqualTo(RuntimeSettings.DEFAULTS.affinityTtlSeconds());
        assertThat(next.affinityCapacity()).isEqualTo(10_000);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"blacklist_threshold\":-1}|validation.blacklist_threshold",
                "{\"blacklist_threshold\":\"3\"}|validation.blacklist_threshold",
                "{\"blacklist_threshold\":1001}|validation.blacklist_threshold",
                "{\"affinity_ttl_seconds\":0}|validation.affinity_ttl_seconds",
                "{\"affinity_ttl_seconds\":604801}|validation.affinity_ttl_seconds",
                "{\"affinity_capacity\":0}|validation.affinity_capacity",
                "{\"affinity_capacity\":2.5}|validation.affinity_capacity",
                "{\"model_prices\":[1]}|validation.model_prices",
                "{\"colour\":1}|validation.unknown_field"
            })
    void badValuesAreRejectedWithTheirCode(String patch, String code) {
        assertThatThrownBy(() -> RuntimeSettings.DEFAULTS.withPatch(json(patch)))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(code);
    }

    @Test
    void storedRowsRoundTrip() {
        RuntimeSettings settings = RuntimeSettings.DEFAULTS.withPatch(
                json("{\"blacklist_threshold\":3,\"affinity_ttl_seconds\":60,\"affinity_capacity\":7,"
                        + "\"model_prices\":{\"m\":{\"input_per_million\":1.5,\"output_per_million\":3}}}"));
        assertThat(RuntimeSettings.fromStored(settings.toStored())).isEqualTo(settings);
    }

    @Test
    void aBadStoredRowKeepsItsDefaultAndTheOthersStillApply() {
        RuntimeSettings read = RuntimeSettings.fromStored(
                Map.of("blacklist_threshold", "many", "affinity_capacity", "42", "unrelated", "x"));
        assertThat(read.blacklistThreshold()).isZero();
        assertThat(read.affinityCapacity()).isEqualTo(42);
    }
}
