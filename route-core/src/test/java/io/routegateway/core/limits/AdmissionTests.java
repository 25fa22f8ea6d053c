package io.routegateway.core.limits;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.SpendSnapshot;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.limits.LeaseFixtures.at;
import static io.routegateway.core.limits.LeaseFixtures.atMillis;
import static io.routegateway.core.limits.LeaseFixtures.closed;
import static io.routegateway.core.limits.LeaseFixtures.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdmissionTests {

    static final ZoneId UTC = ZoneOffset.UTC;

    final AdmissionLedger ledger = new AdmissionLedger();

    static Limits rpm(int limit) {
        return new Limits(limit, null, null, null, null);
    }

    static Limits tpm(long limit) {
        return new Limits(null, limit, null, null, null);
    }

    static Limits parallel(int limit) {
        return new Limits(null, null, limit, null, null);
    }

    static Limits budget(String usd, BudgetDuration duration) {
        return new Limits(null, null, null, new BigDecimal(usd), duration);
    }

    static AdmissionRequest request(Limits key, String team, Limits teamLimits, long reservation) {
        return new AdmissionRequest("k1", key, team, teamLimits, 1, reservation, null, UTC);
    }

    AdmissionDecision decide(Instant now, AdmissionRequest request) {
        return Admission.decide(now, request, ledger);
    }

    /** Opens a lease of {@code key} in {@code team} at {@code second}, holding {@code reserved}. */
    LeaseEvent open(String key, String team, long second, long reserved) {
        LeaseEvent open = opened(UUID.randomUUID(), key, team, at(second), reserved);
        ledger.apply(open, at(second));
        return open;
    }

    /** A request of {@code key} that ran and closed at {@code second} with {@code tokens} and {@code cost}. */
    void spent(String key, String team, long second, long tokens, long costMicros) {
        LeaseEvent open = open(key, team, second, tokens);
        ledger.apply(closed(open, at(second), tokens, costMicros), at(second));
    }

    static LedgerView untouchable() {
        return (LedgerView) Proxy.newProxyInstance(
                LedgerView.class.getClassLoader(), new Class<?>[] {LedgerView.class}, (proxy, method, args) -> {
                    throw new AssertionError("the ledger was read: " + method.getName());
                });
    }

    @Nested
    class Unlimited {

        @Test
        void aKeyWithoutLimitsInATeamWithoutLimitsIsAdmittedWithoutReadingTheLedger() {
            AdmissionDecision decision =
                    Admission.decide(at(0), request(Limits.NONE, "t1", Limits.NONE, 10), untouchable());
            assertThat(decision).isSameAs(AdmissionDecision.UNLIMITED);
            assertThat(decision.admitted()).isTrue();
            assertThat(decision.isUnlimited()).isTrue();
            assertThat(decision.headers().toMap()).isEmpty();
            assertThat(Admission.decide(at(0), request(null, null, null, 10), untouchable()))
                    .isSameAs(AdmissionDecision.UNLIMITED);
        }

        @Test
        void theLedgerOpensNoLeaseForAnUnlimitedRequest() {
            LeaseEvent open = opened(UUID.randomUUID(), "k1", null, at(0), 10);
            assertThat(ledger.admit(at(0), request(Limits.NONE, null, null, 10), open))
                    .isSameAs(AdmissionDecision.UNLIMITED);
            assertThat(ledger.requests(SubjectKind.KEY, "k1", at(0))).isZero();
        }

        @Test
        void aBoundedPoolMakesATeamsRequestLimitedEvenWithoutLimits() {
            PoolLoad pool = new PoolLoad(10, 0, team -> 1);
            assertThat(new AdmissionRequest("k1", null, "t1", null, 1, 1, pool, UTC).isUnlimited())
                    .isFalse();
            assertThat(new AdmissionRequest("k1", null, "t1", null, 1, 1, new PoolLoad(0, 5, null), UTC).isUnlimited())
                    .isTrue();
            assertThat(new AdmissionRequest("k1", null, null, null, 1, 1, pool, UTC).isUnlimited())
                    .isTrue();
        }

        @Test
        void teamLimitsWithoutATeamAreIgnored() {
            assertThat(new AdmissionRequest("k1", null, null, rpm(1), 1, 1, null, UTC).isUnlimited())
                    .isTrue();
        }
    }

    @Nested
    class Budgets {

        @Test
        void aSpentKeyBudgetIsRefusedUntilItsWindowEnds() {
            spent("k1", null, 10, 5, 1_000_000);
            AdmissionDecision decision = decide(at(20), request(budget("1", BudgetDuration.HOUR), null, null, 1));
            assertThat(decision.admitted()).isFalse();
            assertThat(decision.code()).isEqualTo(AdmissionCode.BUDGET_EXCEEDED);
            assertThat(decision.code().wire()).isEqualTo("budget_exceeded");
            assertThat(decision.scope()).isEqualTo(LimitScope.KEY);
            assertThat(decision.field()).isEqualTo(LimitField.MAX_BUDGET);
            // T0 is 12:00:00Z; the hour ends at 13:00:00Z.
            assertThat(decision.retryAfterSeconds()).isEqualTo(3600 - 20);
        }

        @Test
        void spendUnderTheBudgetIsAdmittedAndSpendAtItRefused() {
            spent("k1", null, 10, 5, 999_999);
            assertThat(decide(at(20), request(budget("1", BudgetDuration.DAY), null, null, 1))
                            .admitted())
                    .isTrue();
            spent("k1", null, 11, 5, 1);
            assertThat(decide(at(20), request(budget("1", BudgetDuration.DAY), null, null, 1))
                            .admitted())
                    .isFalse();
        }

        @Test
        void aZeroBudgetAdmitsNothing() {
            AdmissionDecision decision = decide(at(0), request(budget("0", BudgetDuration.MONTH), null, null, 1));
            assertThat(decision.code()).isEqualTo(AdmissionCode.BUDGET_EXCEEDED);
        }

        @Test
        void aSpentLifetimeBudgetHasNoRetryAfter() {
            ledger.applySpend(new SpendSnapshot("key", "k1", 1, Instant.EPOCH, null, 2_000_000, 3, 0, 0, at(0), at(0)));
            AdmissionDecision decision = decide(at(5), request(budget("2", null), null, null, 1));
            assertThat(decision.code()).isEqualTo(AdmissionCode.BUDGET_EXCEEDED);
            assertThat(decision.retryAfterSeconds()).isNull();
            assertThat(decision.message()).isEqualTo("The AccessKey's budget is spent");
        }

        @Test
        void theKeysAndTheTeamsBudgetsAreSeparateWindowsOfSeparateSpend() {
            // Another key of the team spent 3 USD this month; k1 itself spent 0.5 USD today.
            spent("k2", "t1", 0, 5, 3_000_000);
            spent("k1", "t1", 1, 5, 500_000);
            Limits key = budget("1", BudgetDuration.DAY);
            AdmissionDecision underBoth = decide(at(5), request(key, "t1", budget("4", BudgetDuration.MONTH), 1));
            assertThat(underBoth.admitted()).isTrue();
            AdmissionDecision teamSpent = decide(at(5), request(key, "t1", budget("3.5", BudgetDuration.MONTH), 1));
            assertThat(teamSpent.admitted()).isFalse();
            assertThat(teamSpent.scope()).isEqualTo(LimitScope.TEAM);
            // The team's month ends 2026-04-01T00:00Z.
            assertThat(teamSpent.retryAfterSeconds())
                    .isEqualTo(Instant.parse("2026-04-01T00:00:00Z").getEpochSecond() - at(5).getEpochSecond());
            AdmissionDecision keySpent =
                    decide(at(5), request(budget("0.5", BudgetDuration.DAY), "t1", budget("4", null), 1));
            assertThat(keySpent.scope()).isEqualTo(LimitScope.KEY);
        }

        @Test
        void theBudgetWindowIsTheConfiguredZones() {
            // At +12:05, T0 (12:00Z) is 00:05 local: the day began five minutes ago.
            ZoneId zone = ZoneOffset.ofHoursMinutes(12, 5);
            spent("k1", null, -420, 5, 600_000);
            spent("k1", null, -180, 5, 600_000);
            Limits limits = budget("1", BudgetDuration.DAY);
            assertThat(Admission.decide(at(0), new AdmissionRequest("k1", limits, null, null, 1, 1, null, zone), ledger)
                            .admitted())
                    .as("only the cost of 11:57Z is in today's window")
                    .isTrue();
            assertThat(Admission.decide(at(0), new AdmissionRequest("k1", limits, null, null, 1, 1, null, UTC), ledger)
                            .admitted())
                    .as("in UTC both are")
                    .isFalse();
        }

        @Test
        void theBudgetIsCheckedBeforeEveryOtherLimit() {
            open("k1", null, 0, 10);
            Limits everything = new Limits(1, 1L, 1, BigDecimal.ZERO, BudgetDuration.DAY);
            assertThat(decide(at(1), request(everything, null, null, 10)).field())
                    .isEqualTo(LimitField.MAX_BUDGET);
        }
    }

    @Nested
    class RequestsPerMinute {

        @Test
        void theKeysRpmAdmitsUpToTheLimitThenRefusesUntilTheOldestLeaves() {
            Limits limits = rpm(3);
            for (int second = 0; second < 3; second++) {
                AdmissionDecision decision = ledger.admit(
                        at(second),
                        request(limits, null, null, 1),
                        opened(UUID.randomUUID(), "k1", null, at(second), 1));
                assertThat(decision.admitted()).isTrue();
                assertThat(decision.headers().remainingRequests()).isEqualTo(2 - second);
            }
            AdmissionDecision refused = ledger.admit(
                    at(30), request(limits, null, null, 1), opened(UUID.randomUUID(), "k1", null, at(30), 1));
            assertThat(refused.admitted()).isFalse();
            assertThat(refused.code()).isEqualTo(AdmissionCode.RATE_LIMIT_EXCEEDED);
            assertThat(refused.code().wire()).isEqualTo("rate_limit_exceeded");
            assertThat(refused.field()).isEqualTo(LimitField.RPM_LIMIT);
            assertThat(refused.retryAfterSeconds()).isEqualTo(30);
            assertThat(ledger.requests(SubjectKind.KEY, "k1", at(30)))
                    .as("a refusal opens nothing")
                    .isEqualTo(3);
            assertThat(decide(at(60), request(limits, null, null, 1)).admitted())
                    .isTrue();
        }

        @Test
        void retryAfterWaitsForAsManyToLeaveAsAreOverTheLimit() {
            // Five counted, the limit since lowered to 2: one more fits when four have left (the 4th oldest).
            for (int second = 0; second < 5; second++) {
                open("k1", null, second * 10, 1);
            }
            AdmissionDecision refused = decide(at(45), request(rpm(2), null, null, 1));
            assertThat(refused.retryAfterSeconds()).isEqualTo(90 - 45);
        }

        @Test
        void theTeamsRpmCountsEveryKeyOfTheTeam() {
            open("k2", "t1", 0, 1);
            open("k3", "t1", 1, 1);
            AdmissionDecision refused = decide(at(2), request(rpm(100), "t1", rpm(2), 1));
            assertThat(refused.admitted()).isFalse();
            assertThat(refused.scope()).isEqualTo(LimitScope.TEAM);
            assertThat(refused.field()).isEqualTo(LimitField.RPM_LIMIT);
            assertThat(refused.retryAfterSeconds()).isEqualTo(58);
            assertThat(refused.message())
                    .isEqualTo("The team's requests-per-minute limit is reached; retry after 58 s");
        }

        @Test
        void rpmIsCheckedBeforeTpmAndParallel() {
            open("k1", null, 0, 100);
            Limits all = new Limits(1, 1L, 1, null, null);
            assertThat(decide(at(1), request(all, null, null, 100)).field()).isEqualTo(LimitField.RPM_LIMIT);
        }
    }

    @Nested
    class TokensPerMinute {

        @Test
        void admittedIffUsedPlusTheReservationFitsTheLimit() {
            spent("k1", null, 0, 600, 0);
            open("k1", null, 1, 300);
            assertThat(decide(at(2), request(tpm(1000), null, null, 100)).admitted())
                    .isTrue();
            AdmissionDecision refused = decide(at(2), request(tpm(1000), null, null, 101));
            assertThat(refused.admitted()).isFalse();
            assertThat(refused.field()).isEqualTo(LimitField.TPM_LIMIT);
            assertThat(refused.code()).isEqualTo(AdmissionCode.RATE_LIMIT_EXCEEDED);
        }

        @Test
        void aReservationLargerThanTheLimitIsCappedAtItAndRunsInAnEmptyMinute() {
            AdmissionRequest request = request(tpm(1000), "t1", tpm(5000), 50_000);
            assertThat(request.reservedTokens()).isEqualTo(1000);
            assertThat(decide(at(0), request).admitted()).isTrue();
            spent("k1", null, 0, 1, 0);
            assertThat(decide(at(1), request).admitted()).isFalse();
        }

        @Test
        void retryAfterWaitsForEnoughSettledTokensToLeave() {
            spent("k1", null, 0, 400, 0);
            spent("k1", null, 10, 400, 0);
            spent("k1", null, 20, 100, 0);
            // 300 more fit once the first 400 has left: at 60 s.
            assertThat(decide(at(30), request(tpm(1000), null, null, 300)).retryAfterSeconds())
                    .isEqualTo(30);
            // 900 used; 700 more fit in 1000 once 600 have left, i.e. after the first two: at 70 s.
            AdmissionDecision refused = decide(at(30), request(tpm(1000), null, null, 700));
            assertThat(refused.retryAfterSeconds()).isEqualTo(40);
            assertThat(decide(atMillis(69_999), request(tpm(1000), null, null, 700))
                            .admitted())
                    .isFalse();
            assertThat(decide(at(70), request(tpm(1000), null, null, 700)).admitted())
                    .isTrue();
        }

        @Test
        void whenOpenReservationsAloneAreInTheWayRetryAfterIsOneSecond() {
            spent("k1", null, 0, 100, 0);
            open("k1", null, 1, 950);
            AdmissionDecision refused = decide(at(2), request(tpm(1000), null, null, 100));
            assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        }

        @Test
        void theTeamsTpmCountsEveryKeyOfTheTeam() {
            spent("k2", "t1", 0, 900, 0);
            AdmissionDecision refused = decide(at(1), request(tpm(100_000), "t1", tpm(1000), 200));
            assertThat(refused.scope()).isEqualTo(LimitScope.TEAM);
            assertThat(refused.field()).isEqualTo(LimitField.TPM_LIMIT);
            assertThat(refused.retryAfterSeconds()).isEqualTo(59);
        }

        @Test
        void tpmIsCheckedBeforeParallel() {
            open("k1", null, 0, 1000);
            Limits limits = new Limits(null, 1000L, 1, null, null);
            assertThat(decide(at(1), request(limits, null, null, 1)).field()).isEqualTo(LimitField.TPM_LIMIT);
        }
    }

    @Nested
    class ParallelRequests {

        @Test
        void theKeysParallelLimitRefusesWhileItsSlotsAreHeld() {
            LeaseEvent first = open("k1", null, 0, 1);
            open("k1", null, 0, 1);
            AdmissionDecision refused = decide(at(1), request(parallel(2), null, null, 1));
            assertThat(refused.code()).isEqualTo(AdmissionCode.CONCURRENCY_LIMIT_EXCEEDED);
            assertThat(refused.code().wire()).isEqualTo("concurrency_limit_exceeded");
            assertThat(refused.field()).isEqualTo(LimitField.MAX_PARALLEL_REQUESTS);
            assertThat(refused.retryAfterSeconds()).isEqualTo(1);
            ledger.apply(closed(first, at(2), 1L, null), at(2));
            assertThat(decide(at(2), request(parallel(2), null, null, 1)).admitted())
                    .isTrue();
        }

        @Test
        void theTeamsParallelLimitCountsEveryKeyOfTheTeam() {
            open("k2", "t1", 0, 1);
            AdmissionDecision refused = decide(at(1), request(parallel(5), "t1", parallel(1), 1));
            assertThat(refused.scope()).isEqualTo(LimitScope.TEAM);
            assertThat(refused.field()).isEqualTo(LimitField.MAX_PARALLEL_REQUESTS);
        }

        @Test
        void aCrashedHoldersSlotFreesAtExpiry() {
            open("k1", null, 0, 1);
            assertThat(decide(at(59), request(parallel(1), null, null, 1)).admitted())
                    .isFalse();
            assertThat(decide(at(60), request(parallel(1), null, null, 1)).admitted())
                    .isTrue();
        }
    }

    @Nested
    class FairShareOfAPool {

        AdmissionRequest teamRequest(String team, int weight, PoolLoad pool) {
            return new AdmissionRequest("k-" + team, null, team, null, weight, 1, pool, UTC);
        }

        @Test
        void aTeamAtItsShareOfAContendedPoolYields() {
            for (int i = 0; i < 6; i++) {
                open("ka", "ta", 0, 1);
            }
            for (int i = 0; i < 2; i++) {
                open("kb", "tb", 0, 1);
            }
            PoolLoad contended = new PoolLoad(8, 8, team -> 1);
            AdmissionDecision hog = decide(at(1), teamRequest("ta", 1, contended));
            assertThat(hog.admitted()).isFalse();
            assertThat(hog.code()).isEqualTo(AdmissionCode.CONCURRENCY_LIMIT_EXCEEDED);
            assertThat(hog.field()).isEqualTo(LimitField.FAIR_SHARE);
            assertThat(hog.retryAfterSeconds()).isEqualTo(1);
            assertThat(hog.message()).isEqualTo("The team is at its fair share of the contended pool; retry after 1 s");
            assertThat(decide(at(1), teamRequest("tb", 1, contended)).admitted())
                    .isTrue();
            assertThat(decide(at(1), teamRequest("ta", 1, new PoolLoad(8, 7, team -> 1)))
                            .admitted())
                    .as("one slot free, but tb's share claims it")
                    .isFalse();
            assertThat(decide(at(1), teamRequest("ta", 1, new PoolLoad(8, 7, team -> 1, team -> !team.equals("tb"))))
                            .admitted())
                    .as("tb draws on another pool: ta alone, under its share of all 8")
                    .isTrue();
            assertThat(decide(at(1), teamRequest("tc", 1, contended)).admitted())
                    .as("a team with nothing in flight")
                    .isTrue();
            assertThat(decide(at(1), teamRequest("ta", 3, contended)).admitted())
                    .as("weight 3 of 4: share 6, at it")
                    .isFalse();
            assertThat(decide(at(1), teamRequest("ta", 4, contended)).admitted())
                    .as("weight 4 of 5: share 6.4, under it")
                    .isTrue();
        }
    }

    @Nested
    class Headers {

        @Test
        void theRequestsPairCountsThisRequestAndResetsWhenTheWindowEmpties() {
            open("k1", null, 0, 1);
            AdmissionDecision decision = decide(at(10), request(rpm(5), null, null, 1));
            assertThat(decision.headers().toMap())
                    .containsExactly(
                            Map.entry("x-ratelimit-limit-requests", "5"),
                            Map.entry("x-ratelimit-remaining-requests", "3"),
                            Map.entry("x-ratelimit-reset-requests", "1m0s"));
        }

        @Test
        void aRefusalShowsNothingRemainingAndWhenTheOldestLeaves() {
            open("k1", null, 0, 1);
            open("k1", null, 15, 1);
            AdmissionDecision refused = decide(at(20), request(rpm(2), null, null, 1));
            assertThat(refused.headers().toMap())
                    .containsEntry("x-ratelimit-remaining-requests", "0")
                    .containsEntry("x-ratelimit-reset-requests", "55s");
        }

        @Test
        void theTokensPairCountsTheReservationAndResetsWhenSettledTokensLeave() {
            spent("k1", null, 0, 300, 0);
            AdmissionDecision decision = decide(at(20), request(tpm(1000), null, null, 200));
            assertThat(decision.headers().toMap())
                    .containsExactly(
                            Map.entry("x-ratelimit-limit-tokens", "1000"),
                            Map.entry("x-ratelimit-remaining-tokens", "500"),
                            Map.entry("x-ratelimit-reset-tokens", "40s"));
        }

        @Test
        void theTighterOfKeyAndTeamIsShown() {
            open("k2", "t1", 0, 1);
            open("k2", "t1", 0, 1);
            AdmissionDecision decision = decide(at(1), request(rpm(5), "t1", rpm(4), 1));
            // Key: 5 - 0 - 1 = 4 left; team: 4 - 2 - 1 = 1 left.
            assertThat(decision.headers().limitRequests()).isEqualTo(4);
            assertThat(decision.headers().remainingRequests()).isEqualTo(1);
            AdmissionDecision keyTighter = decide(at(1), request(rpm(2), "t1", rpm(40), 1));
            assertThat(keyTighter.headers().limitRequests()).isEqualTo(2);
            assertThat(keyTighter.headers().remainingRequests()).isEqualTo(1);
        }

        @Test
        void onlyThePairsWhoseLimitIsSetAreSent() {
            assertThat(decide(at(0), request(parallel(3), null, null, 1))
                            .headers()
                            .toMap())
                    .isEmpty();
            assertThat(decide(at(0), request(budget("5", null), null, null, 1))
                            .headers()
                            .isEmpty())
                    .isTrue();
            assertThat(decide(at(0), request(rpm(3), null, null, 1)).headers().toMap())
                    .containsOnlyKeys(
                            "x-ratelimit-limit-requests",
                            "x-ratelimit-remaining-requests",
                            "x-ratelimit-reset-requests");
            assertThat(decide(at(0), request(Limits.NONE, "t1", tpm(9), 1))
                            .headers()
                            .toMap())
                    .containsOnlyKeys(
                            "x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens");
            assertThat(decide(at(0), request(Limits.NONE, "t1", tpm(9), 1))
                            .headers()
                            .remainingTokens())
                    .isEqualTo(8);
        }

        @Test
        void durationsAreInOpenAisFormat() {
            assertThat(RateLimitHeaders.duration(0)).isEqualTo("0s");
            assertThat(RateLimitHeaders.duration(-5)).isEqualTo("0s");
            assertThat(RateLimitHeaders.duration(20)).isEqualTo("20ms");
            assertThat(RateLimitHeaders.duration(999)).isEqualTo("999ms");
            assertThat(RateLimitHeaders.duration(1000)).isEqualTo("1s");
            assertThat(RateLimitHeaders.duration(1500)).isEqualTo("1.5s");
            assertThat(RateLimitHeaders.duration(8640)).isEqualTo("8.64s");
            assertThat(RateLimitHeaders.duration(59_001)).isEqualTo("59.001s");
            assertThat(RateLimitHeaders.duration(60_000)).isEqualTo("1m0s");
            assertThat(RateLimitHeaders.duration(360_000)).isEqualTo("6m0s");
            assertThat(RateLimitHeaders.duration(61_500)).isEqualTo("1m1.5s");
            assertThat(RateLimitHeaders.duration(3_600_000)).isEqualTo("1h0m0s");
            assertThat(RateLimitHeaders.duration(3_723_000)).isEqualTo("1h2m3s");
        }
    }

    @Nested
    class Decisions {

        @Test
        void aRefusalHasAScopeAndAFieldAndAnAdmissionNeither() {
            assertThatThrownBy(() -> new AdmissionDecision(true, LimitScope.KEY, LimitField.RPM_LIMIT, 1L, null))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new AdmissionDecision(false, null, LimitField.RPM_LIMIT, 1L, null))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(AdmissionDecision.admit(null).headers()).isSameAs(RateLimitHeaders.NONE);
            assertThat(AdmissionDecision.admit(null).message()).isNull();
            assertThat(AdmissionDecision.admit(null).code()).isNull();
        }

        @Test
        void everyCodeIsA429() {
            assertThat(AdmissionCode.HTTP_STATUS).isEqualTo(429);
            assertThat(LimitField.FAIR_SHARE.code()).isEqualTo(AdmissionCode.CONCURRENCY_LIMIT_EXCEEDED);
            assertThat(LimitField.TPM_LIMIT.code()).isEqualTo(AdmissionCode.RATE_LIMIT_EXCEEDED);
        }

        @Test
        void admitRequiresARequestLeasesOpenedRecord() {
            LeaseEvent attempt = LeaseFixtures.attempt(UUID.randomUUID(), "c1", at(0));
            assertThatThrownBy(() -> ledger.admit(at(0), request(rpm(1), null, null, 1), attempt))
                    .isInstanceOf(IllegalArgumentException.class);
            LeaseEvent open = opened(UUID.randomUUID(), "k1", null, at(0), 1);
            assertThatThrownBy(() -> ledger.admit(at(0), request(rpm(1), null, null, 1), closed(open, at(0), 1L, null)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
