package io.routegateway.core.forward;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.event.AttemptStep;
import io.routegateway.core.event.InboundScreen;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AttemptChainTests {

    private static final Verdict RATE_LIMITED = new Verdict.Transient(
            FailureKind.UPSTREAM_STATUS, 429, "upstream returned 429", "{\"error\":\"slow down\"}", true);

    @Test
    void eachVerdictBecomesAnEntryWithItsStatusKindScopeAndDecision() {
        AttemptStep retried =
                AttemptChain.step(RATE_LIMITED, "c1", "gpt-4o", null, 12, AttemptDecision.RETRY_SAME, null);
        assertThat(retried)
                .isEqualTo(new AttemptStep(
                        "c1",
                        "gpt-4o",
                        429,
                        "upstream_status",
                        "model",
                        12,
                        "retry_same",
                        "{\"error\":\"slow down\"}",
                        null));

        AttemptStep revoked = AttemptChain.step(
                new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "upstream returned 401", null),
                "c2",
                "gpt-4o",
                null,
                3,
                AttemptDecision.FAIL_OVER,
                null);
        assertThat(revoked.failureScope()).isEqualTo("account");
        assertThat(revoked.decision()).isEqualTo("fail_over");
        assertThat(revoked.error()).as("no body: the message").isEqualTo("upstream returned 401");

        AttemptStep served = AttemptChain.step(Verdict.SUCCESS, "c3", "gpt-4o", 200, 40, AttemptDecision.RETURN, null);
        assertThat(served).isEqualTo(new AttemptStep("c3", "gpt-4o", 200, null, null, 40, "success", null, null));

        AttemptStep clientError =
                AttemptChain.step(new Verdict.NotAFailure(400), "c3", "gpt-4o", 400, 5, AttemptDecision.RETURN, null);
        assertThat(clientError.decision()).isEqualTo("give_up");
        assertThat(clientError.status()).isEqualTo(400);
        assertThat(clientError.failureKind()).isNull();
    }

    @Test
    void upstreamTextIsMaskedMadeStorableAndCut() {
        String hostile = "<script>alert(1)</script>\u0000 at https://internal.example/v1 " + "x".repeat(100_000);
        AttemptStep step = AttemptChain.step(
                new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 502, "upstream returned 502", hostile, false),
                "c1",
                "m",
                null,
                1,
                AttemptDecision.FAIL_OVER,
                text -> text.replace("https://internal.example", "***"));
        assertThat(step.error())
                .hasSize(AttemptStep.MAX_ERROR_CHARS + 1)
                .endsWith("…")
                .doesNotContain("\u0000")
                .doesNotContain("internal.example")
                .startsWith("<script>alert(1)</script>\uFFFD at ***/v1");
    }

    @Test
    void aFailOverFollowedByNothingBecomesGiveUp() {
        AttemptChain chain = new AttemptChain();
        assertThat(chain.steps()).as("no attempt, no chain").isNull();
        chain.add(AttemptChain.step(RATE_LIMITED, "c1", "m", null, 1, AttemptDecision.FAIL_OVER, null));
        chain.add(AttemptChain.step(RATE_LIMITED, "c2", "m", null, 1, AttemptDecision.FAIL_OVER, null));
        chain.gaveUp();
        assertThat(chain.steps()).extracting(AttemptStep::decision).containsExactly("fail_over", "give_up");
    }

    @Test
    void aChainOverTheBoundKeepsItsHeadAndLastWithAMarker() {
        AttemptChain chain = new AttemptChain();
        for (int i = 0; i < 40; i++) {
            chain.add(AttemptChain.step(RATE_LIMITED, "c" + i, "m", null, 1, AttemptDecision.RETRY_SAME, null));
        }
        chain.add(AttemptChain.step(Verdict.SUCCESS, "last", "m", 200, 1, AttemptDecision.RETURN, null));
        List<AttemptStep> steps = chain.steps();
        assertThat(steps).hasSize(AttemptStep.MAX_STEPS);
        assertThat(steps.get(AttemptStep.HEAD - 1).credentialId()).isEqualTo("c" + (AttemptStep.HEAD - 1));
        assertThat(steps.get(AttemptStep.HEAD)).isEqualTo(AttemptStep.omission(41 - AttemptStep.HEAD - 1));
        assertThat(steps.get(AttemptStep.MAX_STEPS - 1).credentialId()).isEqualTo("last");
    }

    @Test
    void aChainFromAnotherProcessIsScreenedAndBounded() {
        List<AttemptStep> sent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sent.add(new AttemptStep(
                    "c" + i, "m\u0000", 500, "upstream_status", "model", -5, "fail_over", "e".repeat(5000), null));
        }
        RequestCompleted record = RequestCompleted.refused(
                        UUID.randomUUID(), Instant.EPOCH, Protocol.OPENAI_CHAT, "k", 503, "x")
                .withAttemptChain(sent);
        InboundScreen.Screened<RequestCompleted> screened = InboundScreen.usage(record);
        List<AttemptStep> kept = ((InboundScreen.Screened.Accepted<RequestCompleted>) screened)
                .value()
                .attemptChain();
        assertThat(kept).hasSize(AttemptStep.MAX_STEPS);
        assertThat(kept.get(AttemptStep.HEAD).omitted()).isEqualTo(100 - AttemptStep.HEAD - 1);
        assertThat(kept.get(0).modelKey()).isEqualTo("m\uFFFD");
        assertThat(kept.get(0).latencyMs()).isZero();
        assertThat(kept.get(0).error()).hasSize(AttemptStep.MAX_ERROR_CHARS + 1);
        assertThat(kept.get(AttemptStep.MAX_STEPS - 1).credentialId()).isEqualTo("c99");
    }

    @Test
    void theChainTravelsAsSnakeCaseAndOldRecordsStillDecode() throws Exception {
        RequestCompleted record = RequestCompleted.refused(
                        UUID.randomUUID(), Instant.EPOCH, Protocol.OPENAI_CHAT, "k", 503, "x")
                .withAttemptChain(
                        List.of(AttemptChain.step(RATE_LIMITED, "c1", "m", null, 7, AttemptDecision.FAIL_OVER, null)));
        String json = Json.write(record);
        assertThat(json)
                .contains("\"attempt_chain\":[{\"credential_id\":\"c1\"")
                .contains("\"failure_scope\":\"model\"");
        assertThat(Json.MAPPER.readValue(json, RequestCompleted.class)).isEqualTo(record);

        String old = json.replaceAll(",\"attempt_chain\":\\[.*?\\]", "");
        assertThat(old).doesNotContain("attempt_chain");
        assertThat(Json.MAPPER.readValue(old, RequestCompleted.class).attemptChain())
                .isNull();
    }
}
