package io.routegateway.core.forward;

import java.time.Instant;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.OutcomeClassifier;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.policy.FailurePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class AttemptDecisionTests {

    private static final FailurePolicy POLICY = FailurePolicy.DEFAULTS;
    private static final Instant NOW = Instant.parse("2026-09-02T12:00:00Z");

    private static Verdict status(int status) {
        return OutcomeClassifier.classify(UpstreamOutcome.response(status, "{\"error\":{\"message\":\"x\"}}", false));
    }

    @Test
    void successAndNotAFailureReturnToTheClient() {
        assertThat(AttemptDecision.after(Verdict.SUCCESS, 0, POLICY)).isEqualTo(AttemptDecision.RETURN);
        assertThat(AttemptDecision.after(status(400), 0, POLICY)).isEqualTo(AttemptDecision.RETURN);
        assertThat(AttemptDecision.counts(status(400), AttemptDecision.RETURN)).isFalse();
        assertThat(AttemptDecision.counts(Verdict.SUCCESS, AttemptDecision.RETURN))
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 503})
    void retryableStatusRetriesTheSameCredentialUntilRetryCountIsUsed(int code) {
        Verdict verdict = status(code);
        assertThat(AttemptDecision.after(verdict, 0, POLICY)).isEqualTo(AttemptDecision.RETRY_SAME);
        assertThat(AttemptDecision.after(verdict, 1, POLICY)).isEqualTo(AttemptDecision.RETRY_SAME);
        assertThat(AttemptDecision.after(verdict, 2, POLICY)).isEqualTo(AttemptDecision.FAIL_OVER);
        assertThat(AttemptDecision.counts(verdict, AttemptDecision.RETRY_SAME)).isFalse();
        assertThat(AttemptDecision.counts(verdict, AttemptDecision.FAIL_OVER)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 503})
    void theCoolingProbeIsOneAttemptWithoutSameCredentialRetries(int code) {
        Verdict verdict = status(code);
        assertThat(AttemptDecision.after(verdict, 0, POLICY, true)).isEqualTo(AttemptDecision.FAIL_OVER);
        assertThat(AttemptDecision.counts(verdict, AttemptDecision.FAIL_OVER)).isTrue();
        assertThat(AttemptDecision.after(Verdict.SUCCESS, 0, POLICY, true)).isEqualTo(AttemptDecision.RETURN);
        assertThat(AttemptDecision.after(verdict, 0, POLICY, false)).isEqualTo(AttemptDecision.RETRY_SAME);
    }

    @Test
    void retryCountZeroFailsOverAtOnce() {
        FailurePolicy noRetries = new FailurePolicy(0, 200, 10, false, 10, true);
        assertThat(AttemptDecision.after(status(429), 0, noRetries)).isEqualTo(AttemptDecision.FAIL_OVER);
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void authFailuresNeverRetryTheSameCredential(int code) {
        assertThat(AttemptDecision.after(status(code), 0, POLICY)).isEqualTo(AttemptDecision.FAIL_OVER);
    }

    @Test
    void aFailureBodyOn200SwitchesAtOnce() {
        Verdict verdict = OutcomeClassifier.classify(
                UpstreamOutcome.response(200, "{\"error\":{\"message\":\"upstream overloaded\"}}", false));
        assertThat(verdict).isInstanceOf(Verdict.Transient.class);
        assertThat(AttemptDecision.after(verdict, 0, POLICY)).isEqualTo(AttemptDecision.FAIL_OVER);
    }

    @Test
    void transportFailuresRetryTheSameCredential() {
        Verdict verdict = OutcomeClassifier.classify(UpstreamOutcome.transportFailure("connection failed", false));
        assertThat(AttemptDecision.after(verdict, 0, POLICY)).isEqualTo(AttemptDecision.RETRY_SAME);
    }

    @Test
    void permanentAndQuotaFailOverWithoutRetry() {
        Verdict permanent = OutcomeClassifier.classify(
                UpstreamOutcome.response(401, "{\"error\":{\"message\":\"invalid_grant\"}}", false));
        Verdict quota = OutcomeClassifier.classify(UpstreamOutcome.response(
                429, "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"no\"}}", false));
        assertThat(permanent).isInstanceOf(Verdict.Permanent.class);
        assertThat(quota).isInstanceOf(Verdict.QuotaExhausted.class);
        assertThat(AttemptDecision.after(permanent, 0, POLICY)).isEqualTo(AttemptDecision.FAIL_OVER);
        assertThat(AttemptDecision.after(quota, 0, POLICY)).isEqualTo(AttemptDecision.FAIL_OVER);
    }

    @Test
    void eventsCarryTheVerdict() {
        UUID id = UUID.randomUUID();
        assertThat(AttemptEvents.of(Verdict.SUCCESS, "c", "m", id, NOW))
                .contains(new CredentialEvent.AttemptSucceeded(id, "c", NOW, "m"));
        assertThat(AttemptEvents.of(status(429), "c", "m", id, NOW))
                .contains(new CredentialEvent.TransientFailureRecorded(
                        id,
                        "c",
                        NOW,
                        "m",
                        FailureKind.UPSTREAM_STATUS.label(),
                        429,
                        "upstream returned 429",
                        "{\"error\":{\"message\":\"x\"}}"));
        assertThat(AttemptEvents.of(
                        OutcomeClassifier.classify(UpstreamOutcome.response(
                                401, "{\"error\":{\"message\":\"token has been revoked\"}}", false)),
                        "c",
                        null,
                        id,
                        NOW))
                .get()
                .isInstanceOf(CredentialEvent.PermanentFailureRecorded.class);
        assertThat(AttemptEvents.of(
                        OutcomeClassifier.classify(UpstreamOutcome.response(
                                403, "{\"error\":{\"type\":\"new_api_error\",\"message\":\"用户额度不足, 剩余额度\"}}", false)),
                        "c",
                        "m",
                        id,
                        NOW))
                .get()
                .isInstanceOf(CredentialEvent.QuotaExhaustionRecorded.class);
        assertThat(AttemptEvents.of(status(404), "c", "m", id, NOW)).isEmpty();
    }
}
