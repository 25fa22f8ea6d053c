package io.routegateway.core.limits;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlotWaitTests {

    @Test
    void onlyFullCredentialsInTheWayWaitInShortStepsUpToTheBound() {
        assertThat(SlotWait.nextTryInMillis(true, 0, 5_000)).isEqualTo(SlotWait.RETRY_MILLIS);
        assertThat(SlotWait.nextTryInMillis(true, 4_990, 5_000)).isEqualTo(10);
        assertThat(SlotWait.nextTryInMillis(true, 5_000, 5_000)).isEqualTo(SlotWait.GIVE_UP);
        assertThat(SlotWait.nextTryInMillis(true, 60_000, 5_000)).isEqualTo(SlotWait.GIVE_UP);
    }

    @Test
    void anythingElseInTheWayOrNoWaitConfiguredGivesUpAtOnce() {
        assertThat(SlotWait.nextTryInMillis(false, 0, 5_000)).isEqualTo(SlotWait.GIVE_UP);
        assertThat(SlotWait.nextTryInMillis(true, 0, 0)).isEqualTo(SlotWait.GIVE_UP);
        assertThat(SlotWait.nextTryInMillis(true, 0, -1)).isEqualTo(SlotWait.GIVE_UP);
    }

    @Test
    void aClockThatWentBackCountsAsNoWaitYet() {
        assertThat(SlotWait.nextTryInMillis(true, -500, 5_000)).isEqualTo(SlotWait.RETRY_MILLIS);
    }

    @Test
    void onlyAFairShareRefusalIsDecidedAgainAndOnlyWithinItsBound() {
        assertThat(SlotWait.recheckInMillis(LimitField.FAIR_SHARE, 0, 500)).isEqualTo(SlotWait.RETRY_MILLIS);
        assertThat(SlotWait.recheckInMillis(LimitField.FAIR_SHARE, 500, 500)).isEqualTo(SlotWait.GIVE_UP);
        assertThat(SlotWait.recheckInMillis(LimitField.FAIR_SHARE, 0, 0)).isEqualTo(SlotWait.GIVE_UP);
        for (LimitField other : LimitField.values()) {
            if (other != LimitField.FAIR_SHARE) {
                assertThat(SlotWait.recheckInMillis(other, 0, 500))
                        .as("%s", other)
                        .isEqualTo(SlotWait.GIVE_UP);
            }
        }
        assertThat(SlotWait.recheckInMillis(null, 0, 500)).isEqualTo(SlotWait.GIVE_UP);
    }
}
