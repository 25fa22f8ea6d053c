package io.routegateway.core.failure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The labels a verdict is counted and settled under: the metrics' outcome and the usage record's reason. */
class VerdictLabelTests {

    @Test
    void everyVerdictHasItsOutcomeLabel() {
        assertThat(Verdict.SUCCESS.outcomeLabel()).isEqualTo("success");
        assertThat(new Verdict.NotAFailure(400).outcomeLabel()).isEqualTo("not_a_failure");
        assertThat(new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 429, "m", null, true).outcomeLabel())
                .isEqualTo("transient");
        assertThat(new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "m", null).outcomeLabel())
                .isEqualTo("permanent");
        assertThat(new Verdict.QuotaExhausted(429, "m", null).outcomeLabel()).isEqualTo("quota");
    }

    @Test
    void onlyAFailureHasAFailureLabelItsKinds() {
        assertThat(Verdict.SUCCESS.failureLabel()).isNull();
        assertThat(new Verdict.NotAFailure(404).failureLabel()).isNull();
        assertThat(new Verdict.Transient(FailureKind.RESPONSE_TRANSFORM, 200, "m", null, false).failureLabel())
                .isEqualTo("response_transform");
        assertThat(new Verdict.Permanent(FailureKind.MODEL_TEST_STATUS, 400, "m", null).failureLabel())
                .isEqualTo("model_test_status");
        assertThat(new Verdict.QuotaExhausted(429, "m", null).failureLabel()).isEqualTo("semantic_response_failed");
    }
}
