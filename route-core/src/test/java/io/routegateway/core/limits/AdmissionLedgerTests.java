package io.routegateway.core.limits;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.SpendSnapshot;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.limits.LeaseFixtures.ORIGIN;
import static io.routegateway.core.limits.LeaseFixtures.TTL;
import static io.routegateway.core.limits.LeaseFixtures.at;
import static io.routegateway.core.limits.LeaseFixtures.atMillis;
import static io.routegateway.core.limits.LeaseFixtures.attempt;
import static io.routegateway.core.limits.LeaseFixtures.closed;
import static io.routegateway.core.limits.LeaseFixtures.opened;
import static io.routegateway.core.limits.LeaseFixtures.renewed;
import static io.routegateway.core.limits.SubjectKind.CREDENTIAL;
import static io.routegateway.core.limits.SubjectKind.KEY;
import static io.routegateway.core.limits.SubjectKind.TEAM;
import static org.assertj.core.api.Assertions.assertThat;

class AdmissionLedgerTests {

    final AdmissionLedger ledger = new AdmissionLedger();

    static UUID id() {
        return UUID.randomUUID();
    }

    @Nested
    class Requests {

        @Test
        void anOpenedLeaseCountsForItsKeyAndItsTeamForSixtySeconds() {
            ledger.apply(opened(id(), "k1", "t1", at(0), 10), at(0));
            assertThat(ledger.requests(KEY, "k1", at(0))).isEqualTo(1);
            assertThat(ledger.requests(TEAM, "t1", at(0))).isEqualTo(1);
            assertThat(ledger.requests(KEY, "k1", atMillis(59_999))).isEqualTo(1);
            assertThat(ledger.requests(KEY, "k1", at(60))).isZero();
            assertThat(ledger.requests(TEAM, "t1", at(60))).isZero();
        }

        @Test
        void aClosedLeaseStillCountsItsRequestForTheMinute() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 10);
            ledger.apply(open, at(0));
            ledger.apply(closed(open, at(1), 5L, null), at(1));
            assertThat(ledger.requests(KEY, "k1", at(30))).isEqualTo(1);
        }

        @Test
        void keysTeamsAndCredentialsAreSeparateNamespaces() {
            ledger.apply(opened(id(), "x", null, at(0), 10), at(0));
            assertThat(ledger.requests(KEY, "x", at(1))).isEqualTo(1);
            assertThat(ledger.requests(TEAM, "x", at(1))).isZero();
            assertThat(ledger.requests(CREDENTIAL, "x", at(1))).isZero();
        }

        @Test
        void whenTheNthRequestLeavesTheWindow() {
            for (int second : new int[] {3, 1, 2}) {
                ledger.apply(opened(id(), "k1", null, at(second), 10), at(3));
            }
            assertThat(ledger.requestLeavesAtMillis(KEY, "k1", at(10), 0)).isEqualTo(at(61).toEpochMilli());
            assertThat(ledger.requestLeavesAtMillis(KEY, "k1", at(10), 2)).isEqualTo(at(63).toEpochMilli());
            assertThat(ledger.requestLeavesAtMillis(KEY, "k1", at(10), 3)).isEqualTo(at(10).toEpochMilli());
            assertThat(ledger.requestLeavesAtMillis(KEY, "nobody", at(10), 0)).isEqualTo(at(10).toEpochMilli());
        }
    }

    @Nested
    class Folding {

        @Test
        void theSameRecordTwiceCountsOnce() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 100);
            assertThat(ledger.apply(open, at(0))).isTrue();
            assertThat(ledger.apply(open, at(1))).isFalse();
            LeaseEvent close = closed(open, at(2), 40L, 7L);
            assertThat(ledger.apply(close, at(2))).isTrue();
            assertThat(ledger.apply(close, at(3))).isFalse();
            assertThat(ledger.requests(KEY, "k1", at(3))).isEqualTo(1);
            assertThat(ledger.inFlight(KEY, "k1", at(3))).isZero();
            assertThat(ledger.tokens(KEY, "k1", at(3))).isEqualTo(40);
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), at(3))).isEqualTo(7);
        }

        @Test
        void aClosedBeforeItsOpenedCountsTheRequestButHoldsNoSlot() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 100);
            ledger.apply(closed(open, at(2), 40L, 7L), at(2));
            assertThat(ledger.requests(KEY, "k1", at(2))).isZero();
            assertThat(ledger.tokens(KEY, "k1", at(2))).isEqualTo(40);
            ledger.apply(open, at(3));
            assertThat(ledger.requests(KEY, "k1", at(3))).isEqualTo(1);
            assertThat(ledger.inFlight(KEY, "k1", at(3))).isZero();
            assertThat(ledger.tokens(KEY, "k1", at(3))).isEqualTo(40);
            assertThat(ledger.closedCostAfter(TEAM, "t1", at(-1), at(3))).isEqualTo(7);
        }

        @Test
        void aRenewedAfterTheCloseDoesNotReopen() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 100);
            ledger.apply(open, at(0));
            ledger.apply(closed(open, at(5), 40L, null), at(5));
            ledger.apply(renewed(open, at(4)), at(6));
            assertThat(ledger.inFlight(KEY, "k1", at(6))).isZero();
            assertThat(ledger.tokens(KEY, "k1", at(6))).isEqualTo(40);
        }

        @Test
        void aRenewedAloneHoldsASlotLikeAnOpenOfBeforeTheReaderStarted() {
            LeaseEvent open = opened(id(), "k1", "t1", at(-200), 100);
            ledger.apply(renewed(open, at(-10)), at(0));
            assertThat(ledger.inFlight(KEY, "k1", at(0))).isEqualTo(1);
            assertThat(ledger.tokens(TEAM, "t1", at(0))).isEqualTo(100);
            assertThat(ledger.requests(KEY, "k1", at(0))).isZero();
            assertThat(ledger.inFlight(KEY, "k1", at(50))).isZero();
        }

        @Test
        void anOpenedArrivingAfterItsRenewalKeepsTheLaterExpiry() {
            LeaseEvent open = opened(id(), "k1", null, at(0), 10);
            ledger.apply(renewed(open, at(20)), at(21));
            ledger.apply(open, at(22));
            assertThat(ledger.inFlight(KEY, "k1", at(70))).isEqualTo(1);
            assertThat(ledger.inFlight(KEY, "k1", at(80))).isZero();
        }

        @Test
        void theLargestReservationAnyPhaseCarriedCounts() {
            UUID lease = id();
            LeaseEvent open = opened(lease, "k1", null, at(0), 300);
            // A holder that closes without repeating the reservation, the close arriving first.
            LeaseEvent close = new LeaseEvent(
                    lease,
                    ORIGIN,
                    LeaseEvent.Kind.REQUEST,
                    LeaseEvent.Phase.CLOSED,
                    "k1",
                    null,
                    null,
                    at(1),
                    null,
                    0,
                    null,
                    null);
            ledger.apply(close, at(1));
            assertThat(ledger.tokens(KEY, "k1", at(1))).isZero();
            ledger.apply(open, at(2));
            assertThat(ledger.tokens(KEY, "k1", at(2))).isEqualTo(300);
            ledger.apply(open, at(3));
            assertThat(ledger.tokens(KEY, "k1", at(3))).isEqualTo(300);
            assertThat(ledger.tokens(KEY, "k1", at(61))).isZero();
        }

        @Test
        void malformedRecordsAreIgnored() {
            LeaseEvent good = opened(id(), "k1", null, at(0), 10);
            assertThat(ledger.apply(null, at(0))).isFalse();
            assertThat(ledger.apply(
                            new LeaseEvent(
                                    null,
                                    ORIGIN,
                                    LeaseEvent.Kind.REQUEST,
                                    LeaseEvent.Phase.OPENED,
                                    "k1",
                                    null,
                                    null,
                                    at(0),
                                    at(60),
                                    1,
                                    null,
                                    null),
                            at(0)))
                    .isFalse();
            assertThat(ledger.apply(
                            new LeaseEvent(
                                    id(),
                                    ORIGIN,
                                    null,
                                    LeaseEvent.Phase.OPENED,
                                    "k1",
                                    null,
                                    null,
                                    at(0),
                                    at(60),
                                    1,
                                    null,
                                    null),
                            at(0)))
                    .isFalse();
            assertThat(ledger.apply(
                            new LeaseEvent(
                                    id(),
                                    ORIGIN,
                                    LeaseEvent.Kind.REQUEST,
                                    null,
                                    "k1",
                                    null,
                                    null,
                                    at(0),
                                    at(60),
                                    1,
                                    null,
                                    null),
                            at(0)))
                    .isFalse();
            assertThat(ledger.apply(
                            new LeaseEvent(
                                    id(),
                                    ORIGIN,
                                    LeaseEvent.Kind.REQUEST,
                                    LeaseEvent.Phase.OPENED,
                                    "k1",
                                    null,
                                    null,
                                    null,
                                    at(60),
                                    1,
                                    null,
                                    null),
                            at(0)))
                    .isFalse();
            assertThat(ledger.requests(KEY, "k1", at(0))).isZero();
            assertThat(ledger.apply(good, at(0))).isTrue();
        }

        @Test
        void negativeNumbersFromAPeerCountAsNothing() {
            LeaseEvent open = opened(id(), "k1", null, at(0), 10);
            ledger.apply(open, at(0));
            ledger.apply(closed(open, at(1), -500L, -7L), at(1));
            assertThat(ledger.tokens(KEY, "k1", at(1))).isZero();
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), at(1))).isZero();
        }

        @Test
        void aRecordOfAnUnknownLeaseOlderThanTheMemoryIsIgnored() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 10);
            Instant late = at(0).plus(AdmissionLedger.LEASE_MEMORY).plus(TTL);
            assertThat(ledger.apply(closed(open, at(0), 5L, 99L), late)).isFalse();
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), late)).isZero();
        }

        @Test
        void aLateDuplicateOfARememberedCloseIsNotCountedAgain() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 10);
            LeaseEvent close = closed(open, at(1), 5L, 99L);
            ledger.apply(open, at(0));
            ledger.apply(close, at(1));
            assertThat(ledger.apply(close, at(150))).isFalse();
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), at(150))).isEqualTo(99);
        }

        @Test
        void attemptLeasesCountForTheirCredentialOnly() {
            LeaseEvent open = attempt(id(), "c1", at(0));
            ledger.apply(open, at(0));
            assertThat(ledger.requests(CREDENTIAL, "c1", at(0))).isEqualTo(1);
            assertThat(ledger.inFlight(CREDENTIAL, "c1", at(0))).isEqualTo(1);
            assertThat(ledger.requests(KEY, "k1", at(0))).isZero();
            assertThat(ledger.inFlight(TEAM, "t1", at(0))).isZero();
            ledger.apply(closed(open, at(1), 50L, 3L), at(1));
            assertThat(ledger.inFlight(CREDENTIAL, "c1", at(1))).isZero();
            assertThat(ledger.tokens(CREDENTIAL, "c1", at(1))).isZero();
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), at(1))).isZero();
        }

        @Test
        void aRequestLeaseDoesNotCountForACredential() {
            LeaseEvent open = new LeaseEvent(
                    id(),
                    ORIGIN,
                    LeaseEvent.Kind.REQUEST,
                    LeaseEvent.Phase.OPENED,
                    "k1",
                    null,
                    "c1",
                    at(0),
                    at(60),
                    5,
                    null,
                    null);
            ledger.apply(open, at(0));
            assertThat(ledger.requests(CREDENTIAL, "c1", at(0))).isZero();
            assertThat(ledger.requests(KEY, "k1", at(0))).isEqualTo(1);
        }

        @Test
        void applyAllFoldsABatch() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 10);
            ledger.applyAll(List.of(open, closed(open, at(1), 3L, 1L), open), at(2));
            assertThat(ledger.requests(KEY, "k1", at(2))).isEqualTo(1);
            assertThat(ledger.tokens(TEAM, "t1", at(2))).isEqualTo(3);
        }
    }

    @Nested
    class Parallel {

        @Test
        void anOpenLeaseHoldsASlotUntilItsClose() {
            LeaseEvent open = opened(id(), "k1", "t1", at(0), 10);
            ledger.apply(open, at(0));
            assertThat(ledger.inFlight(KEY, "k1", at(30))).isEqualTo(1);
            assertThat(ledger.inFlight(TEAM, "t1", at(30))).isEqualTo(1);
            ledger.apply(closed(open, at(31), 1L, null), at(31));
            assertThat(ledger.inFlight(KEY, "k1", at(31))).isZero();
            assertThat(ledger.inFlight(TEAM, "t1", at(31))).isZero();
        }

        @Test
        void anUnrenewedLeaseFreesItsSlotAndReservationAtExpiry() {
            ledger.apply(opened(id(), "k1", "t1", at(0), 400), at(0));
            assertThat(ledger.inFlight(KEY, "k1", atMillis(59_999))).isEqualTo(1);
            assertThat(ledger.tokens(KEY, "k1", atMillis(59_999))).isEqualTo(400);
            assertThat(ledger.inFlight(KEY, "k1", at(60))).isZero();
            assertThat(ledger.tokens(KEY, "k1", at(60))).isZero();
            assertThat(ledger.openReservations(TEAM, "t1", at(60))).isZero();
        }

        @Test
        void aRenewalExtendsTheSlot() {
            LeaseEvent open = opened(id(), "k1", null, at(0), 10);
            ledger.apply(open, at(0));
            ledger.apply(renewed(open, at(20)), at(20));
            assertThat(ledger.inFlight(KEY, "k1", at(79))).isEqualTo(1);
            assertThat(ledger.inFlight(KEY, "k1", at(80))).isZero();
        }

        @Test
        void aLateRenewalOfAnExpiredLeaseReopensIt() {
            LeaseEvent open = opened(id(), "k1", null, at(0), 10);
            ledger.apply(open, at(0));
            assertThat(ledger.inFlight(KEY, "k1", at(61))).isZero();
            ledger.apply(renewed(open, at(40)), at(62));
            assertThat(ledger.inFlight(KEY, "k1", at(62))).isEqualTo(1);
            assertThat(ledger.tokens(KEY, "k1", at(62))).isEqualTo(10);
        }

        @Test
        void anOpenedThatArrivesExpiredHoldsNothing() {
            ledger.apply(opened(id(), "k1", null, at(0), 10), at(61));
            assertThat(ledger.inFlight(KEY, "k1", at(61))).isZero();
            assertThat(ledger.requests(KEY, "k1", at(61))).isZero();
        }
    }

    @Nested
    class Tokens {

        @Test
        void openReservationsAndSettledTokensAddUp() {
            LeaseEvent first = opened(id(), "k1", "t1", at(0), 1000);
            LeaseEvent second = opened(id(), "k2", "t1", at(1), 500);
            ledger.apply(first, at(0));
            ledger.apply(second, at(1));
            assertThat(ledger.tokens(TEAM, "t1", at(1))).isEqualTo(1500);
            ledger.apply(closed(first, at(2), 250L, null), at(2));
            assertThat(ledger.tokens(TEAM, "t1", at(2))).isEqualTo(750);
            assertThat(ledger.openReservations(TEAM, "t1", at(2))).isEqualTo(500);
            assertThat(ledger.tokens(KEY, "k1", at(2))).isEqualTo(250);
            assertThat(ledger.tokens(TEAM, "t1", atMillis(60_999))).isEqualTo(750);
            // The second lease expires unrenewed at 61 s: its reservation goes with it.
            assertThat(ledger.tokens(TEAM, "t1", atMillis(61_999))).isEqualTo(250);
            assertThat(ledger.tokens(TEAM, "t1", at(62))).isEqualTo(0);
        }

        @Test
        void aCloseWithoutSettledTokensKeepsTheReservationForTheMinute() {
            LeaseEvent open = opened(id(), "k1", null, at(0), 800);
            ledger.apply(open, at(0));
            ledger.apply(closed(open, at(10), null, null), at(10));
            assertThat(ledger.inFlight(KEY, "k1", at(10))).isZero();
            assertThat(ledger.tokens(KEY, "k1", atMillis(69_999))).isEqualTo(800);
            assertThat(ledger.tokens(KEY, "k1", at(70))).isZero();
        }

        @Test
        void whenSettledTokensFallToATarget() {
            int second = 0;
            for (long tokens : new long[] {100, 200, 300}) {
                LeaseEvent open = opened(id(), "k1", null, at(second), 0);
                ledger.apply(open, at(second));
                ledger.apply(closed(open, at(second), tokens, null), at(second));
                second += 10;
            }
            // 600 settled at 0 s, 10 s, 20 s.
            assertThat(ledger.settledTokensFallToAtMillis(KEY, "k1", at(25), 600))
                    .isEqualTo(at(25).toEpochMilli());
            assertThat(ledger.settledTokensFallToAtMillis(KEY, "k1", at(25), 500))
                    .isEqualTo(at(60).toEpochMilli());
            assertThat(ledger.settledTokensFallToAtMillis(KEY, "k1", at(25), 300))
                    .isEqualTo(at(70).toEpochMilli());
            assertThat(ledger.settledTokensFallToAtMillis(KEY, "k1", at(25), 299))
                    .isEqualTo(at(80).toEpochMilli());
            assertThat(ledger.settledTokensFallToAtMillis(KEY, "k1", at(25), 0)).isEqualTo(at(80).toEpochMilli());
        }
    }

    @Nested
    class Costs {

        LeaseEvent closeAt(String key, String team, long second, long cost) {
            LeaseEvent open = opened(id(), key, team, at(second), 1);
            ledger.apply(open, at(second));
            LeaseEvent close = closed(open, at(second), 1L, cost);
            ledger.apply(close, at(second));
            return close;
        }

        @Test
        void costsAreCountedStrictlyAfterTheInstant() {
            closeAt("k1", "t1", 0, 10);
            closeAt("k1", "t1", 5, 20);
            closeAt("k2", "t1", 9, 40);
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), at(10))).isEqualTo(30);
            assertThat(ledger.closedCostAfter(KEY, "k1", at(0), at(10))).isEqualTo(20);
            assertThat(ledger.closedCostAfter(TEAM, "t1", at(4), at(10))).isEqualTo(60);
            assertThat(ledger.closedCostAfter(TEAM, "t1", at(9), at(10))).isZero();
        }

        @Test
        void costsAreKeptTenMinutesAndNoLonger() {
            closeAt("k1", null, 0, 10);
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), at(599))).isEqualTo(10);
            assertThat(ledger.closedCostAfter(KEY, "k1", at(-1), at(600))).isZero();
        }

        SpendSnapshot snapshot(
                String subject, String id, long version, Instant start, Instant end, long spend, Instant asOf) {
            return new SpendSnapshot(subject, id, version, start, end, spend, 0, 0, 0, asOf, asOf);
        }

        @Test
        void spendIsTheSnapshotPlusWhatClosedAfterItsAsOf() {
            closeAt("k1", null, 0, 10);
            closeAt("k1", null, 5, 20);
            ledger.applySpend(snapshot("key", "k1", 1, at(-3600), at(3600), 1_000, at(0)));
            assertThat(ledger.spendMicros(KEY, "k1", at(-3600), at(3600), at(6)))
                    .isEqualTo(1_020);
        }

        @Test
        void theNewestVersionWins() {
            assertThat(ledger.applySpend(snapshot("key", "k1", 2, at(-3600), at(3600), 500, at(0))))
                    .isTrue();
            assertThat(ledger.applySpend(snapshot("key", "k1", 1, at(-3600), at(3600), 100, at(0))))
                    .isFalse();
            assertThat(ledger.applySpend(snapshot("key", "k1", 2, at(-3600), at(3600), 900, at(0))))
                    .isFalse();
            assertThat(ledger.spendMicros(KEY, "k1", at(-3600), at(3600), at(1)))
                    .isEqualTo(500);
            assertThat(ledger.applySpend(snapshot("key", "k1", 3, at(-3600), at(3600), 700, at(0))))
                    .isTrue();
            assertThat(ledger.spendMicros(KEY, "k1", at(-3600), at(3600), at(1)))
                    .isEqualTo(700);
        }

        @Test
        void aSnapshotOfAnEndedWindowCountsAsNothingAndOnlyTheNewWindowsCostsCount() {
            closeAt("k1", null, -5, 10);
            closeAt("k1", null, 5, 20);
            ledger.applySpend(snapshot("key", "k1", 1, at(-3600), at(0), 5_000, at(-6)));
            assertThat(ledger.spendMicros(KEY, "k1", at(0), at(3600), at(6))).isEqualTo(20);
        }

        @Test
        void aCostAtTheWindowStartBelongsToTheWindow() {
            closeAt("k1", null, 0, 10);
            assertThat(ledger.spendMicros(KEY, "k1", at(0), at(3600), at(1))).isEqualTo(10);
            assertThat(ledger.spendMicros(KEY, "k1", at(1), at(3600), at(2))).isZero();
        }

        @Test
        void aLifetimeSnapshotOnlyCountsForALifetimeBudget() {
            closeAt("k1", null, 5, 20);
            ledger.applySpend(snapshot("key", "k1", 1, Instant.EPOCH, null, 9_000, at(0)));
            assertThat(ledger.spendMicros(KEY, "k1", Instant.EPOCH, null, at(6)))
                    .isEqualTo(9_020);
            assertThat(ledger.spendMicros(KEY, "k1", at(-3600), at(3600), at(6)))
                    .isEqualTo(20);
            ledger.applySpend(snapshot("key", "k1", 2, at(-3600), at(3600), 300, at(0)));
            assertThat(ledger.spendMicros(KEY, "k1", Instant.EPOCH, null, at(6)))
                    .isEqualTo(20);
        }

        @Test
        void keyAndTeamSnapshotsAreApart() {
            ledger.applySpend(snapshot("team", "x", 1, at(-3600), at(3600), 300, at(0)));
            assertThat(ledger.spendMicros(TEAM, "x", at(-3600), at(3600), at(1)))
                    .isEqualTo(300);
            assertThat(ledger.spendMicros(KEY, "x", at(-3600), at(3600), at(1))).isZero();
            assertThat(ledger.applySpend(snapshot("user", "x", 1, at(-3600), at(3600), 300, at(0))))
                    .isFalse();
            ledger.removeSpend(TEAM, "x");
            assertThat(ledger.spendMicros(TEAM, "x", at(-3600), at(3600), at(1)))
                    .isZero();
        }
    }

    @Nested
    class Activity {

        @Test
        void teamsActiveInTheLastMinuteOrInFlight() {
            LeaseEvent a = opened(id(), "k1", "ta", at(0), 1);
            LeaseEvent b = opened(id(), "k2", "tb", at(0), 1);
            ledger.apply(a, at(0));
            ledger.apply(b, at(0));
            ledger.apply(opened(id(), "k3", "tc", at(0), 1), at(0));
            ledger.apply(closed(a, at(1), 1L, null), at(1));
            LeaseEvent renewedB = renewed(b, at(50));
            ledger.apply(renewedB, at(50));
            assertThat(ledger.teamsActiveSince(at(0), at(30))).containsOnlyKeys("tb", "tc");
            assertThat(ledger.teamsActiveSince(at(-30), at(30))).containsOnlyKeys("ta", "tb", "tc");
            assertThat(ledger.teamsActiveSince(at(-30), at(30)))
                    .containsEntry("ta", 0L)
                    .containsEntry("tb", 1L);
            // At 70 s: nothing opened in the last minute; tb is still in flight (renewed), tc expired.
            assertThat(ledger.teamsActiveSince(at(10), at(70))).containsOnly(java.util.Map.entry("tb", 1L));
        }

        @Test
        void leasesPastAThirdOfTheirTermAreDueForRenewalByTheirHolderOnly() {
            LeaseEvent mine = opened(id(), "k1", null, at(0), 1);
            LeaseEvent peers = new LeaseEvent(
                    id(),
                    "replica-b",
                    LeaseEvent.Kind.REQUEST,
                    LeaseEvent.Phase.OPENED,
                    "k1",
                    null,
                    null,
                    at(0),
                    at(60),
                    1,
                    null,
                    null);
            LeaseEvent attempt = attempt(id(), "c1", at(5));
            ledger.apply(mine, at(0));
            ledger.apply(peers, at(0));
            ledger.apply(attempt, at(5));
            assertThat(ledger.leasesToRenew(atMillis(19_999), ORIGIN)).isEmpty();
            assertThat(ledger.leasesToRenew(at(20), ORIGIN)).containsExactly(mine);
            assertThat(ledger.leasesToRenew(at(25), ORIGIN)).containsExactlyInAnyOrder(mine, attempt);
            LeaseEvent renewal = Leases.renewal(mine, at(25), TTL);
            ledger.apply(renewal, at(25));
            assertThat(ledger.leasesToRenew(at(26), ORIGIN)).containsExactly(attempt);
            assertThat(ledger.leasesToRenew(at(45), ORIGIN)).containsExactlyInAnyOrder(renewal, attempt);
            ledger.apply(closed(mine, at(46), 1L, null), at(46));
            assertThat(ledger.leasesToRenew(at(46), ORIGIN)).containsExactly(attempt);
            assertThat(ledger.leasesToRenew(at(66), ORIGIN)).isEmpty();
        }
    }

    @Nested
    class Memory {

        @Test
        void everythingIsForgottenOnceOlderThanTheWindowsAndTheMemory() {
            // Ten minutes of traffic, 5 requests a second over 3 keys and 2 teams, plus attempts.
            for (int second = 0; second < 600; second++) {
                for (int i = 0; i < 5; i++) {
                    LeaseEvent open = opened(id(), "k" + (i % 3), "t" + (i % 2), at(second), 100);
                    ledger.apply(open, at(second));
                    ledger.apply(closed(open, at(second), 80L, 3L), at(second));
                }
                LeaseEvent attempt = attempt(id(), "c1", at(second));
                ledger.apply(attempt, at(second));
                if (second % 7 != 0) {
                    ledger.apply(closed(attempt, at(second), null, null), at(second));
                }
            }
            // Bounded by what the memory spans: ~3 minutes of leases plus the open ones.
            assertThat(ledger.leaseCount()).isLessThan(6 * (180 + 62) + 10);
            assertThat(ledger.requests(TEAM, "t0", at(600))).isLessThanOrEqualTo(180);
            // Costs span ten minutes; opens and tokens one.
            assertThat(ledger.entryCount()).isLessThan(5 * 2 * (600 + 60 + 60) + 2 * 60 + 100);
            Instant later = at(600).plus(AdmissionLedger.COST_RETENTION).plusSeconds(61);
            assertThat(ledger.requests(KEY, "k0", later)).isZero();
            ledger.teamsActiveSince(later.plusSeconds(31), later.plusSeconds(31));
            assertThat(ledger.leaseCount()).isZero();
            assertThat(ledger.entryCount()).isZero();
            assertThat(ledger.subjectCount()).isZero();
        }

        @Test
        void aSubjectWithASpendSnapshotIsKept() {
            ledger.applySpend(new SpendSnapshot("key", "k1", 1, Instant.EPOCH, null, 5, 0, 0, 0, at(0), at(0)));
            ledger.requests(KEY, "k1", at(100_000));
            assertThat(ledger.subjectCount()).isEqualTo(1);
            assertThat(ledger.spendMicros(KEY, "k1", Instant.EPOCH, null, at(100_000)))
                    .isEqualTo(5);
        }
    }
}
