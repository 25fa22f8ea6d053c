package io.routegateway.state.spend;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.routegateway.core.limits.Limits;

/**
 * The spend of an AccessKey or a team in its current window, as {@code GET …/spend} answers it.
 *
 * @param spendUsd settled cost of the window's requests (the sum of their {@code cost_micros})
 * @param maxBudget the subject's budget in USD, null when it has none
 * @param budgetDuration {@code 1h}, {@code 1d}, {@code 7d}, {@code 30d} or {@code 1mo}; null for a
 *     lifetime budget and for no budget
 * @param budgetWindowStart the window's start: the epoch for a lifetime budget; the start of the
 *     calendar month for a subject without a budget
 * @param budgetResetAt the window's end, when the spend starts again from 0; null for a lifetime
 *     budget
 * @param requests requests counted in the window, refused and failed ones included
 * @param cacheReadTokens of the input tokens, those read from the prompt cache
 * @param cacheWriteTokens 5-minute and 1-hour cache writes together
 * @param cacheWrite5mTokens of the cache writes, those written for five minutes
 * @param cacheWrite1hTokens of the cache writes, those written for one hour
 * @param reasoningTokens of the output tokens, the reasoning ones
 * @param byModel the window's request logs by model (the model key, else the requested name; null
 *     for requests refused before a model was chosen), most spend first, at most {@value
 *     #MAX_MODELS}
 */
public record SpendView(
        BigDecimal spendUsd,
        BigDecimal maxBudget,
        String budgetDuration,
        Instant budgetWindowStart,
        Instant budgetResetAt,
        long requests,
        long inputTokens,
        long outputTokens,
        long cacheReadTokens,
        long cacheWriteTokens,
        @JsonProperty("cache_write_5m_tokens") long cacheWrite5mTokens,
        @JsonProperty("cache_write_1h_tokens") long cacheWrite1hTokens,
        long reasoningTokens,
        List<ModelSpend> byModel) {

    /** Most models listed in {@code by_model}. */
    public static final int MAX_MODELS = 50;

    /** One model's share of the window. */
    public record ModelSpend(String model, BigDecimal spendUsd, long requests) {}

    public SpendView {
        byModel = List.copyOf(byModel);
    }

    static SpendView of(Limits limits, SpendRules.Totals totals, List<ModelSpend> byModel) {
        return new SpendView(
                SpendRules.usd(totals.spendMicros()),
                limits.maxBudget(),
                limits.budgetDuration() == null ? null : limits.budgetDuration().wire(),
                totals.window().start(),
                totals.window().end(),
                totals.requests(),
                totals.inputTokens(),
                totals.outputTokens(),
                totals.cacheReadTokens(),
                totals.cacheWriteTokens(),
                totals.cacheWrite5mTokens(),
                totals.cacheWrite1hTokens(),
                totals.reasoningTokens(),
                byModel);
    }
}
