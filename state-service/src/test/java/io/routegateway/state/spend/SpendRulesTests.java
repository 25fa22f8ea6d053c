package io.routegateway.state.spend;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.Limits;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpendRulesTests {

    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
    private static final Instant AT = Instant.parse("2026-12-15T10:20:30Z");

    private static Limits budget(String usd, BudgetDuration duration) {
        return new Limits(null, null, null, new BigDecimal(usd), duration);
    }

    @Test
    void aBudgetWithADurationCountsInThatCalendarWindowOfTheConfiguredZone() {
        assertThat(SpendRules.window(budget("5", BudgetDuration.HOUR), AT, UTC))
                .isEqualTo(new SpendRules.Window(
                        "1h", Instant.parse("2026-12-15T10:00:00Z"), Instant.parse("2026-12-15T11:00:00Z")));
        // 10:20 UTC is 18:20 in Shanghai: the Shanghai day began at 16:00 UTC the day before
        assertThat(SpendRules.window(budget("5", BudgetDuration.DAY), AT, SHANGHAI))
                .isEqualTo(new SpendRules.Window(
                        "1d", Instant.parse("2026-12-14T16:00:00Z"), Instant.parse("2026-12-15T16:00:00Z")));
        assertThat(SpendRules.window(budget("5", BudgetDuration.MONTH), AT, UTC))
                .isEqualTo(new SpendRules.Window(
                        "1mo", Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2027-01-01T00:00:00Z")));
    }

    @Test
    void aBudgetWithoutADurationIsALifetimeWindowAndNoBudgetIsTheCalendarMonth() {
        assertThat(SpendRules.window(budget("5", null), AT, UTC))
                .isEqualTo(new SpendRules.Window(SpendRules.LIFETIME, Instant.EPOCH, null));
        // rate limits alone do not make a budget: the spend is still shown, per calendar month
        assertThat(SpendRules.window(new Limits(60, null, null, null, null), AT, UTC))
                .isEqualTo(new SpendRules.Window(
                        "1mo", Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2027-01-01T00:00:00Z")));
        assertThat(SpendRules.window(Limits.NONE, AT, UTC).duration()).isEqualTo("1mo");
    }

    @Test
    void aBatchAddsUpPerSubjectAndWindowInLockOrderAndDeletedSubjectsCountNothing() {
        List<SpendRules.Counted> rows = List.of(
                counted("key-b", "team-a", AT, 100L, 10L, 5L, 3L, 1L),
                counted("key-a", "team-a", AT.plusSeconds(60), 50L, 1L, 1L, null, null),
                // priced nothing, negative counts from a broken upstream: counted as a request of 0
                counted("key-a", null, AT.plusSeconds(30), null, -5L, null, -1L, null),
                // the key was deleted meanwhile: its spend is not kept
                counted("key-gone", null, AT, 999L, 1L, 1L, null, null),
                // the previous hour for an hourly key
                counted("key-b", null, AT.minusSeconds(3600), 7L, 0L, 0L, null, null));
        List<SpendRules.Totals> deltas = SpendRules.deltas(
                rows,
                Map.of("key-a", Limits.NONE, "key-b", budget("1", BudgetDuration.HOUR)),
                Map.of("team-a", budget("10", null)),
                UTC);

        assertThat(deltas)
                .extracting(totals -> totals.subject().kind() + ":"
                        + totals.subject().id() + "@" + totals.window().start())
                .containsExactly(
                        "key:key-a@2026-12-01T00:00:00Z",
                        "key:key-b@2026-12-15T09:00:00Z",
                        "key:key-b@2026-12-15T10:00:00Z",
                        "team:team-a@1970-01-01T00:00:00Z");
        SpendRules.Totals keyA = deltas.get(0);
        assertThat(keyA.spendMicros()).isEqualTo(50);
        assertThat(keyA.requests()).isEqualTo(2);
        assertThat(keyA.inputTokens()).isEqualTo(1);
        assertThat(keyA.cacheReadTokens()).isZero();
        assertThat(keyA.asOf()).isEqualTo(AT.plusSeconds(60));
        SpendRules.Totals team = deltas.get(3);
        assertThat(team.spendMicros()).isEqualTo(150);
        assertThat(team.requests()).isEqualTo(2);
        assertThat(team.inputTokens()).isEqualTo(11);
        assertThat(team.outputTokens()).isEqualTo(6);
        assertThat(team.cacheReadTokens()).isEqualTo(3);
        assertThat(team.cacheWriteTokens()).isEqualTo(1);
        assertThat(team.window().end()).isNull();
    }

    @Test
    void sumsSaturateInsteadOfWrapping() {
        List<SpendRules.Totals> deltas = SpendRules.deltas(
                List.of(
                        counted("key-a", null, AT, Long.MAX_VALUE, Long.MAX_VALUE, 1L, null, null),
                        counted("key-a", null, AT, Long.MAX_VALUE, 5L, 1L, null, null)),
                Map.of("key-a", Limits.NONE),
                Map.of(),
                UTC);
        assertThat(deltas.get(0).spendMicros()).isEqualTo(Long.MAX_VALUE);
        assertThat(deltas.get(0).inputTokens()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void onlySubjectsWithABudgetArePublishedOncePerBatchInTheirCurrentOrANewerWindow() {
        Limits hourly = budget("1", BudgetDuration.HOUR);
        SpendRules.Subject keyA = new SpendRules.Subject(SpendSnapshot.KEY, "key-a");
        SpendRules.Subject keyB = new SpendRules.Subject(SpendSnapshot.KEY, "key-b");
        SpendRules.Subject keyC = new SpendRules.Subject(SpendSnapshot.KEY, "key-c");
        SpendRules.Window previous = new SpendRules.Window(
                "1h", Instant.parse("2026-12-15T09:00:00Z"), Instant.parse("2026-12-15T10:00:00Z"));
        SpendRules.Window current = new SpendRules.Window(
                "1h", Instant.parse("2026-12-15T10:00:00Z"), Instant.parse("2026-12-15T11:00:00Z"));
        SpendRules.Window next = new SpendRules.Window(
                "1h", Instant.parse("2026-12-15T11:00:00Z"), Instant.parse("2026-12-15T12:00:00Z"));
        SpendRules.Window month = new SpendRules.Window(
                "1mo", Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2027-01-01T00:00:00Z"));

        List<SpendRules.Totals> published = SpendRules.toPublish(
                List.of(
                        SpendRules.empty(keyA, previous),
                        SpendRules.empty(keyA, current),
                        // a record from a replica whose clock is ahead
                        SpendRules.empty(keyA, next),
                        // a late record only: nothing a gateway checks changed
                        SpendRules.empty(keyB, previous),
                        // no budget: not published
                        SpendRules.empty(keyC, month)),
                Map.of(keyA, hourly, keyB, hourly, keyC, Limits.NONE),
                AT,
                UTC);

        assertThat(published).extracting(SpendRules.Totals::subject).containsExactly(keyA);
        assertThat(published.get(0).window()).isEqualTo(next);
    }

    @Test
    void aBudgetRefusesOnceTheSpendReachesItAndZeroRefusesEverything() {
        Limits oneCent = budget("0.01", null);
        assertThat(SpendRules.exceeded(9_999, oneCent)).isFalse();
        assertThat(SpendRules.exceeded(10_000, oneCent)).isTrue();
        assertThat(SpendRules.exceeded(0, budget("0", null))).isTrue();
        assertThat(SpendRules.exceeded(Long.MAX_VALUE, Limits.NONE)).isFalse();
    }

    @Test
    void microUsdReadAsPlainUsd() {
        assertThat(SpendRules.usd(4_500)).isEqualByComparingTo("0.0045").hasToString("0.0045");
        assertThat(SpendRules.usd(10_000_000)).hasToString("10");
        assertThat(SpendRules.usd(0)).hasToString("0");
    }

    @Test
    void aSnapshotCarriesTheWindowAndItsTotals() {
        SpendRules.Window window = new SpendRules.Window(
                "1d", Instant.parse("2026-12-15T00:00:00Z"), Instant.parse("2026-12-16T00:00:00Z"));
        SpendRules.Totals totals = new SpendRules.Totals(
                new SpendRules.Subject(SpendSnapshot.TEAM, "team-a"), window, 42, 3, 10, 20, 1, 2, 1, 0, AT);
        SpendSnapshot snapshot = SpendRules.snapshot(totals, 9, AT.plusSeconds(1));
        assertThat(snapshot)
                .isEqualTo(new SpendSnapshot(
                        "team", "team-a", 9, window.start(), window.end(), 42, 3, 10, 20, AT, AT.plusSeconds(1)));
        assertThat(SpendSnapshot.recordKey(snapshot.subject(), snapshot.subjectId()))
                .isEqualTo("team:team-a");
    }

    private static SpendRules.Counted counted(
            String key, String team, Instant at, Long cost, Long input, Long output, Long cacheRead, Long cacheWrite) {
        return new SpendRules.Counted(key, team, at, cost, input, output, cacheRead, cacheWrite, null, null);
    }
}
