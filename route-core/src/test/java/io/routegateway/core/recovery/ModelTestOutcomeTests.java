package io.routegateway.core.recovery;

import java.time.Instant;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.FailureScope;
import io.routegateway.core.failure.OutcomeClassifier;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ModelTestOutcomeTests {

    static final UUID ID = UUID.fromString("00000000-0000-0000-0000-000000000001");
    static final Instant NOW = Instant.parse("2026-09-02T08:00:00Z");

    static ModelTestOutcome test(UpstreamOutcome outcome) {
        return ModelTestOutcome.of(
                OutcomeClassifier.classify(outcome), outcome.status(), "cred-1", "up-model", true, false, ID, NOW);
    }

    @Test
    void passIsAnExplicitTestSuccessForTheTestedModel() {
        ModelTestOutcome outcome = test(UpstreamOutcome.response(200, "{\"id\":\"x\",\"choices\":[]}", true));

        assertThat(outcome.success()).isTrue();
        assertThat(outcome.status()).isEqualTo(200);
        assertThat(outcome.kind()).isNull();
        assertThat(outcome.event())
                .isEqualTo(new CredentialEvent.ModelTestSucceeded(ID, "cred-1", NOW, "up-model", true, false));
    }

    @Test
    void aProbesPassSaysItWasAutomatic() {
        ModelTestOutcome outcome = ModelTestOutcome.of(Verdict.SUCCESS, 200, "cred-1", "up-model", true, true, ID, NOW);

        assertThat(outcome.event())
                .isEqualTo(new CredentialEvent.ModelTestSucceeded(ID, "cred-1", NOW, "up-model", true, true));
    }

    @Test
    void statusFailureIsModelTestStatusAndModelScopedExceptOnAuth() {
        ModelTestOutcome throttled =
                test(UpstreamOutcome.response(429, "{\"error\":{\"message\":\"slow down\"}}", true));

        assertThat(throttled.success()).isFalse();
        assertThat(throttled.kind()).isEqualTo(FailureKind.MODEL_TEST_STATUS);
        assertThat(throttled.event()).isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, e -> {
            assertThat(e.kind()).isEqualTo("model_test_status");
            assertThat(e.status()).isEqualTo(429);
            assertThat(e.modelKey()).isEqualTo("up-model");
            assertThat(e.responseBody()).contains("slow down");
            assertThat(FailureScope.chargesAccount(FailureKind.MODEL_TEST_STATUS, e.status(), e.modelKey()))
                    .isFalse();
        });

        ModelTestOutcome rejected = test(UpstreamOutcome.response(401, "{\"error\":{\"message\":\"bad key\"}}", true));
        assertThat(rejected.event()).isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, e -> {
            assertThat(e.status()).isEqualTo(401);
            assertThat(FailureScope.chargesAccount(FailureKind.MODEL_TEST_STATUS, e.status(), e.modelKey()))
                    .isTrue();
        });
    }

    @Test
    void transportFailureIsModelTestAndAccountScoped() {
        ModelTestOutcome outcome = test(UpstreamOutcome.transportFailure("connection refused", true));

        assertThat(outcome.status()).isNull();
        assertThat(outcome.kindLabel()).isEqualTo("model_test");
        assertThat(outcome.message()).isEqualTo("connection refused");
        assertThat(outcome.event()).isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, e -> {
            assertThat(e.status()).isNull();
            assertThat(FailureScope.chargesAccount(FailureKind.MODEL_TEST, null, e.modelKey()))
                    .isTrue();
        });
    }

    @Test
    void quotaExhaustionTakesTheQuotaChannel() {
        ModelTestOutcome outcome = test(UpstreamOutcome.response(
                403,
                "{\"error\":{\"type\":\"new_api_error\",\"message\":\"用户额度不足, 剩余额度: ＄-0.39\"},\"type\":\"error\"}",
                true));

        assertThat(outcome.kind()).isEqualTo(FailureKind.SEMANTIC_RESPONSE_FAILED);
        assertThat(outcome.event()).isInstanceOf(CredentialEvent.QuotaExhaustionRecorded.class);
    }

    @Test
    void permanentTextRevokes() {
        ModelTestOutcome outcome = test(UpstreamOutcome.response(401, "{\"error\":\"invalid_grant\"}", true));

        assertThat(outcome.event())
                .isInstanceOfSatisfying(
                        CredentialEvent.PermanentFailureRecorded.class,
                        e -> assertThat(e.kind()).isEqualTo("model_test_status"));
    }

    @Test
    void permanentTextOnAClientSideStatusRevokes() {
        // a model test carries no client text: a relay's 400 naming a void grant is the credential's
        ModelTestOutcome outcome = test(UpstreamOutcome.response(400, "{\"error\":\"invalid_grant\"}", true));

        assertThat(outcome.success()).isFalse();
        assertThat(outcome.event())
                .isInstanceOfSatisfying(
                        CredentialEvent.PermanentFailureRecorded.class,
                        e -> assertThat(e.kind()).isEqualTo("model_test_status"));
    }

    @Test
    void clientSideStatusFailsTheTestButPublishesNothing() {
        ModelTestOutcome outcome =
                test(UpstreamOutcome.response(404, "{\"error\":{\"message\":\"no such model\"}}", true));

        assertThat(outcome.success()).isFalse();
        assertThat(outcome.status()).isEqualTo(404);
        assertThat(outcome.kind()).isNull();
        assertThat(outcome.outcomeEvent()).isEmpty();
    }

    @Test
    void everyVerdictMapsToAnAnswer() {
        Verdict[] verdicts = {
            Verdict.SUCCESS,
            new Verdict.NotAFailure(400),
            new Verdict.Transient(FailureKind.MODEL_TEST, null, "x", null, true),
            new Verdict.Permanent(FailureKind.MODEL_TEST_STATUS, 401, "x", null),
            new Verdict.QuotaExhausted(200, "x", null)
        };
        for (Verdict verdict : verdicts) {
            ModelTestOutcome outcome = ModelTestOutcome.of(verdict, 200, "c", "m", true, false, ID, NOW);
            assertThat(outcome.success()).isEqualTo(verdict instanceof Verdict.Success);
            assertThat(outcome.outcomeEvent().isPresent()).isEqualTo(verdict.isFailure() || outcome.success());
        }
    }
}
