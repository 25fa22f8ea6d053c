package io.routegateway.state.routecheck;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.Limits;
import io.routegateway.state.spend.SpendRules;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link RouteCheckRules#admission}: the budget verdict on top of the routing decision, without I/O. */
class RouteCheckAdmissionTests {

    private static final Instant NOW = Instant.parse("2026-12-15T10:20:30Z");
    private static final Instant DAY_END = Instant.parse("2026-12-16T00:00:00Z");
    private static final Instant MONTH_END = Instant.parse("2027-01-01T00:00:00Z");

    private static final RouteCheckView SELECTED =
            new RouteCheckView("selected", null, null, null, null, null, null, null, null, null, null);
    private static final RouteCheckView KEY_DISABLED =
            new RouteCheckView("refused", "access_key_disabled", "m", "h", "msg", 401, null, null, null, null, null);

    private static AccessKeySnapshot key(String teamId, Limits limits) {
        return new AccessKeySnapshot(
                "key-a", 1, "k", "hash", "rk-abcd", true, null, List.of(), List.of(), List.of(), NOW, teamId, limits);
    }

    private static TeamSnapshot team(Limits limits) {
        return new TeamSnapshot("team-a", 1, "Team A", limits, 1, NOW);
    }

    private static SpendRules.Totals spent(String kind, String id, long micros, String duration, Instant end) {
        Instant start = end == null ? Instant.EPOCH : NOW.minusSeconds(3600);
        return new SpendRules.Totals(
                new SpendRules.Subject(kind, id),
                new SpendRules.Window(duration, start, end),
                micros,
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
    void aKeyWithoutLimitsOrTeamIsNotLimited() {
        RouteCheckView checked = RouteCheckRules.admission(SELECTED, key(null, Limits.NONE), null, null, null);
        assertThat(checked.decision()).isEqualTo("selected");
        assertThat(checked.admission().decision()).isEqualTo("not_limited");
        assertThat(checked.admission().budgets()).isEmpty();
        assertThat(checked.admission().note()).isNull();
    }

    @Test
    void aBudgetWithSpendLeftAdmitsAndTheEffectiveLimitsAreTheTighter() {
        Limits keyLimits = new Limits(100, 5_000L, null, new BigDecimal("1"), BudgetDuration.DAY);
        Limits teamLimits = new Limits(50, null, 4, null, null);
        RouteCheckView checked = RouteCheckRules.admission(
                SELECTED,
                key("team-a", keyLimits),
                team(teamLimits),
                spent("key", "key-a", 999_999, "1d", DAY_END),
                null);
        assertThat(checked.decision()).isEqualTo("selected");
        RouteCheckView.AdmissionCheck admission = checked.admission();
        assertThat(admission.decision()).isEqualTo("admitted");
        assertThat(admission.reasonCode()).isNull();
        assertThat(admission.teamName()).isEqualTo("Team A");
        assertThat(admission.effectiveLimits())
                .isEqualTo(new Limits(50, 5_000L, 4, new BigDecimal("1"), BudgetDuration.DAY));
        assertThat(admission.budgets()).singleElement().satisfies(budget -> {
            assertThat(budget.exceeded()).isFalse();
            assertThat(budget.spendUsd()).isEqualByComparingTo("0.999999");
            assertThat(budget.budgetResetAt()).isEqualTo(DAY_END);
        });
        assertThat(admission.note()).contains("rpm_limit");
    }

    @Test
    void aSpentBudgetRefusesWith429UntilEverySpentBudgetHasReset() {
        Limits keyLimits = new Limits(null, null, null, new BigDecimal("1"), BudgetDuration.DAY);
        Limits teamLimits = new Limits(null, null, null, new BigDecimal("10"), BudgetDuration.MONTH);
        RouteCheckView checked = RouteCheckRules.admission(
                SELECTED,
                key("team-a", keyLimits),
                team(teamLimits),
                spent(SpendSnapshot.KEY, "key-a", 1_000_000, "1d", DAY_END),
                spent(SpendSnapshot.TEAM, "team-a", 10_000_001, "1mo", MONTH_END));
        assertThat(checked.decision()).isEqualTo("refused");
        assertThat(checked.reasonCode()).isEqualTo("budget_exceeded");
        assertThat(checked.httpStatus()).isEqualTo(429);
        assertThat(checked.selected()).isNull();
        assertThat(checked.admission().budgetResetAt()).isEqualTo(MONTH_END);
        assertThat(checked.earliestRecoveryAt()).isEqualTo(MONTH_END);
        assertThat(checked.message()).contains("the key's and its team's budget is spent until 2027-01-01");
    }

    @Test
    void aSpentLifetimeBudgetNeverResets() {
        Limits teamLimits = new Limits(null, null, null, new BigDecimal("0"), null);
        RouteCheckView checked = RouteCheckRules.admission(
                SELECTED,
                key("team-a", Limits.NONE),
                team(teamLimits),
                null,
                spent(SpendSnapshot.TEAM, "team-a", 0, SpendRules.LIFETIME, null));
        assertThat(checked.reasonCode()).isEqualTo("budget_exceeded");
        assertThat(checked.admission().budgetResetAt()).isNull();
        assertThat(checked.message()).contains("does not reset");
    }

    @Test
    void aKeyRefusedAtAuthenticationStaysRefusedForThatReason() {
        Limits keyLimits = new Limits(null, null, null, new BigDecimal("0"), null);
        RouteCheckView checked = RouteCheckRules.admission(
                KEY_DISABLED,
                key(null, keyLimits),
                null,
                spent(SpendSnapshot.KEY, "key-a", 0, SpendRules.LIFETIME, null),
                null);
        assertThat(checked.reasonCode()).isEqualTo("access_key_disabled");
        assertThat(checked.httpStatus()).isEqualTo(401);
        assertThat(checked.admission().decision()).isEqualTo("refused");
    }
}
