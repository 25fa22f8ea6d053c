package io.routegateway.core.usage;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelPricesTests {

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static final ModelPrices PRICES =
            ModelPrices.parse(json("{\"upstream-sol\":{\"input_per_million\":1.25,\"output_per_million\":10},"
                    + "\"gpt-5.6-sol\":{\"input_per_million\":100,\"output_per_million\":100},"
                    + "\"cheap\":{\"input_per_million\":0.1,\"output_per_million\":0.3}}"));

    @Test
    void oneTokenAtPUsdPerMillionCostsPMicroUsd() {
        // 1000 × 1.25 + 200 × 10 = 3250 micro-USD
        assertThat(PRICES.costMicros("upstream-sol", null, 1000L, 200L)).isEqualTo(3250L);
    }

    @Test
    void theModelKeyWinsOverTheRequestedName() {
        assertThat(PRICES.costMicros("upstream-sol", "gpt-5.6-sol", 1000L, 0L)).isEqualTo(1250L);
    }

    @Test
    void theRequestedNamePricesAKeyWithoutPrice() {
        assertThat(PRICES.costMicros("unpriced", "gpt-5.6-sol", 1L, 1L)).isEqualTo(200L);
    }

    @Test
    void decimalPricesAreExactAndRoundHalfUp() {
        // 5 × 0.1 + 5 × 0.3 = 2.0 exactly (binary doubles would not give that)
        assertThat(PRICES.costMicros("cheap", null, 5L, 5L)).isEqualTo(2L);
        // 1 × 0.1 + 1 × 0.3 = 0.4 → 0; 2 × 0.1 + 1 × 0.3 = 0.5 → 1
        assertThat(PRICES.costMicros("cheap", null, 1L, 1L)).isZero();
        assertThat(PRICES.costMicros("cheap", null, 2L, 1L)).isEqualTo(1L);
    }

    @Test
    void noPriceOrNoTokensIsNoCostRatherThanZero() {
        assertThat(PRICES.costMicros("unpriced", "also-unpriced", 10L, 10L)).isNull();
        assertThat(PRICES.costMicros("upstream-sol", null, null, null)).isNull();
        assertThat(PRICES.costMicros("upstream-sol", null, 8L, null)).isEqualTo(10L);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[]",
                "{\"m\":1}",
                "{\"m\":{\"input_per_million\":1}}",
                "{\"m\":{\"input_per_million\":\"1\",\"output_per_million\":1}}",
                "{\"m\":{\"input_per_million\":-1,\"output_per_million\":1}}",
                "{\" \":{\"input_per_million\":1,\"output_per_million\":1}}"
            })
    void malformedPricesAreRejected(String text) {
        assertThatThrownBy(() -> ModelPrices.parse(json(text)))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(ModelPrices.CODE);
    }

    @Test
    void storedFormRoundTripsAndCorruptTextReadsAsNone() {
        assertThat(ModelPrices.read(PRICES.toJson().toString())).isEqualTo(PRICES);
        assertThat(ModelPrices.read("{not json")).isEqualTo(ModelPrices.NONE);
    }
}
