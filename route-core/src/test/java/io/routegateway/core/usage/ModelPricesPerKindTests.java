package io.routegateway.core.usage;

import java.math.BigDecimal;

import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.routegateway.core.usage.ModelPricesTests.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prices per token kind: input, output, reasoning, cache read, 5-minute and 1-hour cache writes. */
class ModelPricesPerKindTests {

    /** Anthropic's list prices for Sonnet: reads 0.1×, 5-minute writes 1.25×, 1-hour writes 2× the input. */
    static final ModelPrices PRICES = ModelPrices.parse(json("{\"sonnet\":{\"input_per_million\":3,"
            + "\"output_per_million\":15,\"cache_read_per_million\":0.3,\"cache_write_5m_per_million\":3.75,"
            + "\"cache_write_1h_per_million\":6},"
            + "\"o4\":{\"input_per_million\":1.1,\"output_per_million\":4.4,\"cache_read_per_million\":0.275,"
            + "\"reasoning_per_million\":8},"
            + "\"plain\":{\"input_per_million\":2,\"output_per_million\":8}}"));

    @Test
    void eachKindIsPricedAtItsOwnPrice() {
        // 1000 prompt tokens: 600 read, 200 written for 5 min, 100 for 1 h, 100 uncached; 50 output
        TokenUsage tokens = TokenUsage.ofDetails(1000L, 50L, 600L, 200L, 100L, null);
        // 100 × 3 + 600 × 0.3 + 200 × 3.75 + 100 × 6 + 50 × 15 = 300 + 180 + 750 + 600 + 750
        assertThat(PRICES.costMicros("sonnet", null, tokens)).isEqualTo(2580L);
    }

    @Test
    void reasoningIsPricedApartFromTheRestOfTheOutput() {
        // 2000 prompt tokens of which 1024 cached; 500 output of which 300 reasoning
        TokenUsage tokens = TokenUsage.ofDetails(2000L, 500L, 1024L, null, null, 300L);
        // 976 × 1.1 + 1024 × 0.275 + 200 × 4.4 + 300 × 8 = 1073.6 + 281.6 + 880 + 2400 = 4635.2
        assertThat(PRICES.costMicros("o4", null, tokens)).isEqualTo(4635L);
        assertThat(PRICES.costMicros("o4", null, 2000L, 500L, 1024L, null, null, 300L))
                .isEqualTo(4635L);
    }

    @Test
    void anUnsetKindIsPricedAsTheTotalItBelongsTo() {
        // no cache or reasoning prices: the cost is the one of the two totals
        TokenUsage tokens = TokenUsage.ofDetails(1000L, 400L, 300L, 100L, 50L, 200L);
        assertThat(PRICES.costMicros("plain", null, tokens)).isEqualTo(1000 * 2 + 400 * 8L);
        assertThat(PRICES.costMicros("plain", null, tokens)).isEqualTo(PRICES.costMicros("plain", null, 1000L, 400L));
        // o4 has no write prices: the writes cost the input price
        assertThat(PRICES.costMicros("o4", null, TokenUsage.ofDetails(1000L, 0L, null, 1000L, null, null)))
                .isEqualTo(1100L);
    }

    @Test
    void inconsistentCountsNeverMakeACostNegative() {
        // more cached than prompt tokens, more reasoning than output, negative counts
        TokenUsage tokens = TokenUsage.ofDetails(10L, 5L, 1000L, 500L, 100L, 900L);
        // uncached and non-reasoning output clamp at 0; the parts are priced as reported
        // 1000 × 0.3 + 500 × 3.75 + 100 × 6 = 300 + 1875 + 600; reasoning at the output price 900 × 15
        assertThat(PRICES.costMicros("sonnet", null, tokens)).isEqualTo(300 + 1875 + 600 + 13500L);
        assertThat(PRICES.costMicros("sonnet", null, TokenUsage.ofDetails(-10L, -5L, -3L, -2L, -1L, -7L)))
                .isZero();
        assertThat(PRICES.costMicros("sonnet", null, TokenUsage.ofDetails(100L, 10L, -50L, null, null, -5L)))
                .isEqualTo(100 * 3 + 10 * 15L);
    }

    @Test
    void absurdCountsHaveNoCost() {
        TokenUsage tokens =
                TokenUsage.ofDetails(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, 1L, 0L);
        assertThat(PRICES.costMicros("sonnet", null, tokens)).isNull();
    }

    @Test
    void detailsWithoutATotalAreNoCost() {
        assertThat(PRICES.costMicros("sonnet", null, TokenUsage.ofDetails(null, null, 100L, 100L, 100L, 100L)))
                .isNull();
    }

    @Test
    void onlyTheSetPricesRoundTrip() {
        assertThat(PRICES.toJson().get("sonnet").fieldNames())
                .toIterable()
                .containsExactly(
                        "input_per_million",
                        "output_per_million",
                        "cache_read_per_million",
                        "cache_write_5m_per_million",
                        "cache_write_1h_per_million");
        assertThat(PRICES.toJson().get("plain").fieldNames())
                .toIterable()
                .containsExactly("input_per_million", "output_per_million");
        assertThat(ModelPrices.parse(PRICES.toJson())).isEqualTo(PRICES);
        assertThat(ModelPrices.read(PRICES.toJson().toString())).isEqualTo(PRICES);
        ModelPrices.Price o4 = PRICES.prices().get("o4");
        assertThat(o4.reasoningPerMillion()).isEqualByComparingTo("8");
        assertThat(o4.cacheWrite5mPerMillion()).isNull();
        assertThat(o4.cacheWrite5m()).isEqualByComparingTo("1.1");
        assertThat(PRICES.prices().get("plain").reasoning()).isEqualByComparingTo("8");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                // misspelt or unknown price fields
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_read_per_milion\":1}}",
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_write_per_million\":1}}",
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"currency\":\"USD\"}}",
                // optional prices as strict as the required ones
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_read_per_million\":-0.1}}",
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"reasoning_per_million\":\"2\"}}",
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_write_1h_per_million\":null}}",
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_write_5m_per_million\":1000001}}",
                "{\"m\":{\"input_per_million\":1,\"output_per_million\":1,\"cache_write_5m_per_million\":1e400}}",
                // the required two stay required
                "{\"m\":{\"cache_read_per_million\":1,\"output_per_million\":1}}"
            })
    void aWrongPriceFieldIsRefused(String text) {
        assertThatThrownBy(() -> ModelPrices.parse(json(text)))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(ModelPrices.CODE);
    }

    @Test
    void theHighestPriceIsAccepted() {
        ModelPrices prices = ModelPrices.parse(json(
                "{\"m\":{\"input_per_million\":0,\"output_per_million\":0,\"cache_write_1h_per_million\":1000000}}"));
        assertThat(prices.prices().get("m").cacheWrite1hPerMillion())
                .isEqualByComparingTo(BigDecimal.valueOf(1_000_000));
    }
}
