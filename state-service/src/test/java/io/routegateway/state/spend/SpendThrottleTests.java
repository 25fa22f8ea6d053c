package io.routegateway.state.spend;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.limits.Limits;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A subject's snapshot leaves at most once per interval unless its budget was crossed; none is lost. */
class SpendThrottleTests {

    private static final long SECOND = 1_000_000_000L;
    private static final SpendRules.Subject KEY = new SpendRules.Subject(SpendSnapshot.KEY, "k1");
    private static final SpendRules.Subject TEAM = new SpendRules.Subject(SpendSnapshot.TEAM, "t1");

    @Test
    void theFirstSnapshotLeavesAtOnceAndTheNextWithinTheIntervalWaitsUntilItHasPassed() {
        SpendThrottle throttle = new SpendThrottle(SECOND);

        assertThat(throttle.publishNow(KEY, false, 0)).isTrue();
        assertThat(throttle.publishNow(KEY, false, SECOND / 2)).isFalse();
        assertThat(throttle.publishNow(KEY, false, SECOND / 2 + 1)).isFalse();

        assertThat(throttle.due(SECOND - 1)).isEmpty();
        assertThat(throttle.due(SECOND)).containsExactly(KEY);
        // handed out once
        assertThat(throttle.due(SECOND + 1)).isEmpty();
        assertThat(throttle.waiting()).isZero();
        // and the interval counts from that publication
        assertThat(throttle.publishNow(KEY, false, SECOND + SECOND / 2)).isFalse();
        assertThat(throttle.publishNow(KEY, false, 2 * SECOND)).isTrue();
        assertThat(throttle.due(3 * SECOND)).isEmpty();
    }

    @Test
    void aCrossedBudgetLeavesAtOnceAndNoLongerWaits() {
        SpendThrottle throttle = new SpendThrottle(SECOND);
        throttle.publishNow(TEAM, false, 0);
        assertThat(throttle.publishNow(TEAM, false, 10)).isFalse();

        assertThat(throttle.publishNow(TEAM, true, 20)).isTrue();

        assertThat(throttle.waiting()).isZero();
        assertThat(throttle.due(5 * SECOND)).isEmpty();
    }

    @Test
    void subjectsCountApartAndLeaveInLockOrder() {
        SpendThrottle throttle = new SpendThrottle(SECOND);
        throttle.publishNow(TEAM, false, 0);
        throttle.publishNow(KEY, false, 0);
        assertThat(throttle.publishNow(TEAM, false, 1)).isFalse();
        assertThat(throttle.publishNow(KEY, false, 2)).isFalse();

        assertThat(throttle.due(SECOND + 2)).containsExactly(KEY, TEAM);
    }

    @Test
    void aFailedPublicationWaitsAgain() {
        SpendThrottle throttle = new SpendThrottle(SECOND);
        throttle.publishNow(KEY, false, 0);
        throttle.publishNow(KEY, false, 1);
        List<SpendRules.Subject> due = throttle.due(SECOND);

        throttle.retry(due);

        assertThat(throttle.due(SECOND + 1)).isEmpty();
        assertThat(throttle.due(2 * SECOND)).containsExactly(KEY);
    }

    @Test
    void withoutAnIntervalEverySnapshotLeavesAndNothingIsHeld() {
        SpendThrottle throttle = new SpendThrottle(0);

        for (int i = 0; i < 5; i++) {
            assertThat(throttle.publishNow(KEY, false, i)).isTrue();
        }
        assertThat(throttle.due(10)).isEmpty();
        assertThat(throttle.remembered()).isZero();
        assertThatThrownBy(() -> new SpendThrottle(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void memoryHoldsOnlyTheSubjectsOfTheLastIntervalAndTheWaitingOnes() {
        SpendThrottle throttle = new SpendThrottle(SECOND);
        for (int i = 0; i < 100; i++) {
            throttle.publishNow(new SpendRules.Subject(SpendSnapshot.KEY, "k" + i), false, 0);
        }
        throttle.publishNow(new SpendRules.Subject(SpendSnapshot.KEY, "k7"), false, 1);
        assertThat(throttle.remembered()).isEqualTo(100);

        assertThat(throttle.due(SECOND)).hasSize(1);

        // only the one published just now is remembered
        assertThat(throttle.remembered()).isEqualTo(1);
    }

    @Test
    void aBudgetIsCrossedWhenTheBatchTookTheSpendFromUnderItToAtOrOverIt() {
        Limits budget = new Limits(null, null, null, new BigDecimal("1"), null);
        SpendRules.Window lifetime = new SpendRules.Window(SpendRules.LIFETIME, Instant.EPOCH, null);
        SpendRules.Totals delta = totals(lifetime, 300_000);

        assertThat(SpendRules.crossedBudget(totals(lifetime, 1_000_000), List.of(delta), budget))
                .isTrue();
        assertThat(SpendRules.crossedBudget(totals(lifetime, 1_200_000), List.of(delta), budget))
                .isTrue();
        // already over before the batch, or still under after it
        assertThat(SpendRules.crossedBudget(totals(lifetime, 1_300_000), List.of(delta), budget))
                .isFalse();
        assertThat(SpendRules.crossedBudget(totals(lifetime, 999_999), List.of(delta), budget))
                .isFalse();
        // no budget never crosses
        assertThat(SpendRules.crossedBudget(totals(lifetime, 1_000_000), List.of(delta), Limits.NONE))
                .isFalse();
    }

    private static SpendRules.Totals totals(SpendRules.Window window, long spendMicros) {
        return new SpendRules.Totals(KEY, window, spendMicros, 1, 0, 0, 0, 0, 0, 0, Instant.EPOCH);
    }
}
