package io.routegateway.core.usage;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.SplittableRandom;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of the per-kind price over random prices and token counts, consistent or not. */
class ModelPricesProperties {

    private static BigDecimal price(SplittableRandom r) {
        // up to 1000 USD per million with up to 4 decimals
        return BigDecimal.valueOf(r.nextLong(10_000_001), 4);
    }

    private static BigDecimal maybe(SplittableRandom r) {
        return r.nextBoolean() ? null : price(r);
    }

    private static ModelPrices.Price randomPrice(SplittableRandom r) {
        return new ModelPrices.Price(price(r), price(r), maybe(r), maybe(r), maybe(r), maybe(r));
    }

    private static Long count(SplittableRandom r) {
        int kind = r.nextInt(10);
        if (kind == 0) {
            return null;
        }
        if (kind == 1) {
            return -r.nextLong(1_000);
        }
        return r.nextLong(2_000_000);
    }

    /** Consistent counts: the parts add up to at most their totals. */
    private static TokenUsage consistent(SplittableRandom r) {
        long read = r.nextLong(100_000);
        long write5m = r.nextLong(100_000);
        long write1h = r.nextLong(100_000);
        long input = read + write5m + write1h + r.nextLong(100_000);
        long reasoning = r.nextLong(50_000);
        long output = reasoning + r.nextLong(50_000);
        return TokenUsage.ofDetails(input, output, read, write5m, write1h, reasoning);
    }

    @Property(tries = 500)
    void aCostIsNeverNegative(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        TokenUsage tokens = TokenUsage.ofDetails(count(r), count(r), count(r), count(r), count(r), count(r));
        Long cost = new ModelPrices(Map.of("m", randomPrice(r))).costMicros("m", null, tokens);
        if (tokens.inputTokens() == null && tokens.outputTokens() == null) {
            assertThat(cost).isNull();
        } else {
            assertThat(cost).isNotNull().isNotNegative();
        }
    }

    @Property(tries = 500)
    void consistentCountsCostTheSumOfEachKindTimesItsPrice(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ModelPrices.Price price = randomPrice(r);
        TokenUsage t = consistent(r);
        BigDecimal expected = price.inputPerMillion()
                .multiply(BigDecimal.valueOf(
                        t.inputTokens() - t.cacheReadTokens() - t.cacheWrite5mTokens() - t.cacheWrite1hTokens()))
                .add(price.cacheRead().multiply(BigDecimal.valueOf(t.cacheReadTokens())))
                .add(price.cacheWrite5m().multiply(BigDecimal.valueOf(t.cacheWrite5mTokens())))
                .add(price.cacheWrite1h().multiply(BigDecimal.valueOf(t.cacheWrite1hTokens())))
                .add(price.outputPerMillion().multiply(BigDecimal.valueOf(t.outputTokens() - t.reasoningTokens())))
                .add(price.reasoning().multiply(BigDecimal.valueOf(t.reasoningTokens())));
        assertThat(new ModelPrices(Map.of("m", price)).costMicros("m", null, t))
                .isEqualTo(expected.setScale(0, RoundingMode.HALF_UP).longValueExact());
    }

    @Property(tries = 300)
    void withoutOptionalPricesTheDetailsDoNotChangeTheCost(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ModelPrices prices = new ModelPrices(Map.of("m", new ModelPrices.Price(price(r), price(r))));
        TokenUsage t = consistent(r);
        assertThat(prices.costMicros("m", null, t))
                .isEqualTo(prices.costMicros("m", null, t.inputTokens(), t.outputTokens()));
    }

    @Property(tries = 300)
    void aDearerKindNeverLowersTheCost(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ModelPrices.Price p = randomPrice(r);
        BigDecimal more = BigDecimal.ONE;
        ModelPrices.Price dearer = new ModelPrices.Price(
                p.inputPerMillion(),
                p.outputPerMillion(),
                p.reasoning().add(more),
                p.cacheRead().add(more),
                p.cacheWrite5m().add(more),
                p.cacheWrite1h().add(more));
        TokenUsage t = TokenUsage.ofDetails(count(r), count(r), count(r), count(r), count(r), count(r));
        Long cheap = new ModelPrices(Map.of("m", p)).costMicros("m", null, t);
        Long dear = new ModelPrices(Map.of("m", dearer)).costMicros("m", null, t);
        if (cheap != null) {
            assertThat(dear).isGreaterThanOrEqualTo(cheap);
        }
    }

    @Property(tries = 300)
    void theStoredFormRoundTrips(@ForAll long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ModelPrices prices = new ModelPrices(Map.of("a", randomPrice(r), "b", randomPrice(r)));
        ModelPrices back = ModelPrices.read(prices.toJson().toString());
        assertThat(back.toJson()).isEqualTo(prices.toJson());
        for (String model : prices.prices().keySet()) {
            assertThat(back.prices().get(model).set().keySet())
                    .containsExactlyElementsOf(prices.prices().get(model).set().keySet());
        }
    }
}
