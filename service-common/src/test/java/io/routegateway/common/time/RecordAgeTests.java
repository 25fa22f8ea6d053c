package io.routegateway.common.time;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RecordAgeTests {

    @Test
    void theAgeIsTheTimeSinceTheStamp() {
        assertThat(RecordAge.millis(1_000, 1_250)).isEqualTo(250);
    }

    @Test
    void aStampAheadOfThisClockCountsAsNoWait() {
        assertThat(RecordAge.millis(1_040, 1_000)).isZero();
    }

    @Test
    void aRecordWithoutAStampHasNoAge() {
        assertThat(RecordAge.millis(-1, 1_000)).isEqualTo(RecordAge.UNSTAMPED);
    }
}
