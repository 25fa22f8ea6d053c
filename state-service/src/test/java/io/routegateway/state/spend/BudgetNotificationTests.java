package io.routegateway.state.spend;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.webhook.Notification;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The spend ledger's budget notifications: a team's total before this batch against after it, in its window. */
class BudgetNotificationTests {

    static final Instant START = Instant.parse("2026-12-01T00:00:00Z");
    static final Instant NOW = Instant.parse("2026-12-06T05:00:00Z");

    static SpendRules.Totals totals(String kind, String id, long spendMicros) {
        return new SpendRules.Totals(
                new SpendRules.Subject(kind, id),
                new SpendRules.Window("1mo", START, Instant.parse("2027-01-01T00:00:00Z")),
                spendMicros,
                1,
                0,
                0,
                0,
                0,
                0,
                0,
                NOW);
    }

    @Test
    void aTeamsBatchThatCrossesEightyPercentOfItsBudgetNotifiesOnceAndAKeyNever() {
        // budget 10 USD = 10,000,000 µUSD; 7.5 USD before the batch, 8.5 USD after it
        Map<String, Limits> teams =
                Map.of("research", new Limits(null, null, null, BigDecimal.TEN, BudgetDuration.fromWire("1mo")));
        List<Notification> out = SpendLedger.budgetNotifications(
                List.of(totals(SpendSnapshot.TEAM, "research", 1_000_000), totals(SpendSnapshot.KEY, "k1", 1_000_000)),
                List.of(
                        totals(SpendSnapshot.TEAM, "research", 8_500_000),
                        totals(SpendSnapshot.KEY, "k1", 9_999_999_999L)),
                teams,
                NOW);
        assertThat(out).hasSize(1);
        Notification crossed = out.get(0);
        assertThat(crossed.type()).isEqualTo("team.budget_threshold");
        assertThat(crossed.teamId()).isEqualTo("research");
        assertThat(crossed.thresholdPercent()).isEqualTo(80);
        assertThat(crossed.spendMicros()).isEqualTo(8_500_000);
        assertThat(crossed.budgetMicros()).isEqualTo(10_000_000);
        assertThat(crossed.windowStart()).isEqualTo(START);

        // the next batch stays between 80 % and 100 %: nothing new
        assertThat(SpendLedger.budgetNotifications(
                        List.of(totals(SpendSnapshot.TEAM, "research", 500_000)),
                        List.of(totals(SpendSnapshot.TEAM, "research", 9_000_000)),
                        teams,
                        NOW))
                .isEmpty();
        // a team without a budget never notifies
        assertThat(SpendLedger.budgetNotifications(
                        List.of(totals(SpendSnapshot.TEAM, "ops", 5_000_000)),
                        List.of(totals(SpendSnapshot.TEAM, "ops", 5_000_000)),
                        Map.of("ops", Limits.NONE),
                        NOW))
                .isEmpty();
    }
}
