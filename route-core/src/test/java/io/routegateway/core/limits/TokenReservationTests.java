package io.routegateway.core.limits;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TokenReservationTests {

    @Test
    void thePromptPlusTheRequestedOutput() {
        assertThat(TokenReservation.of(300, 200L)).isEqualTo(500);
        assertThat(TokenReservation.of(300, 0L)).isEqualTo(300);
    }

    @Test
    void noOutputBoundReservesTheDefault() {
        assertThat(TokenReservation.of(300, null)).isEqualTo(300 + 1024);
        assertThat(TokenReservation.DEFAULT_OUTPUT_TOKENS).isEqualTo(1024);
    }

    @Test
    void neverNegative() {
        assertThat(TokenReservation.of(-5, -7L)).isEqualTo(1024);
        assertThat(TokenReservation.of(Long.MIN_VALUE, Long.MIN_VALUE)).isEqualTo(1024);
        assertThat(TokenReservation.capped(-1, 10L)).isZero();
    }

    @Test
    void boundedByTheLargestLimit() {
        assertThat(TokenReservation.of(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Limits.MAX_TPM);
        assertThat(TokenReservation.of(Limits.MAX_TPM, 1L)).isEqualTo(Limits.MAX_TPM);
        assertThat(TokenReservation.capped(Long.MAX_VALUE, null)).isEqualTo(Limits.MAX_TPM);
    }

    @Test
    void cappedAtTheTpmLimit() {
        assertThat(TokenReservation.capped(5000, 1000L)).isEqualTo(1000);
        assertThat(TokenReservation.capped(500, 1000L)).isEqualTo(500);
        assertThat(TokenReservation.capped(500, null)).isEqualTo(500);
    }
}
