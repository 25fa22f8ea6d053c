package io.routegateway.gateway.admission;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.AdmissionDecision;
import io.routegateway.core.limits.Leases;
import io.routegateway.core.limits.LimitField;
import io.routegateway.core.limits.LimitScope;
import io.routegateway.core.limits.RateLimitHeaders;
import io.routegateway.core.limits.TokenReservation;
import io.routegateway.core.model.Protocol;
import io.routegateway.gateway.publish.LeasePublisher;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The gateway's own small rules around route-core's admission, without Kafka or HTTP. */
class AdmissionRulesTests {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    @Test
    void theOutputBoundIsReadFromEachProtocolsFieldAndAnythingElseIsTheDefault() throws Exception {
        assertThat(RequestedTokens.maxOutputTokens(json("{\"max_tokens\":100}")))
                .isEqualTo(100L);
        assertThat(RequestedTokens.maxOutputTokens(json("{\"max_completion_tokens\":200}")))
                .isEqualTo(200L);
        assertThat(RequestedTokens.maxOutputTokens(json("{\"max_output_tokens\":300}")))
                .isEqualTo(300L);
        assertThat(RequestedTokens.maxOutputTokens(json("{\"generationConfig\":{\"maxOutputTokens\":400}}")))
                .isEqualTo(400L);
        assertThat(RequestedTokens.maxOutputTokens(json("{\"max_tokens\":\"100\"}")))
                .isNull();
        assertThat(RequestedTokens.maxOutputTokens(json("{\"max_tokens\":-5}"))).isNull();
        assertThat(RequestedTokens.maxOutputTokens(json("{\"max_tokens\":1.5}")))
                .isNull();
        assertThat(RequestedTokens.maxOutputTokens(json("{\"generationConfig\":7}")))
                .isNull();
        assertThat(RequestedTokens.maxOutputTokens(json("[1]"))).isNull();
        assertThat(RequestedTokens.maxOutputTokens(null)).isNull();
        assertThat(RequestedTokens.maxOutputTokens(json("{\"max_tokens\":123456789012345678901234567890}")))
                .isEqualTo(TokenReservation.MAX);
    }

    @Test
    void theReservationIsAQuarterOfTheBodyPlusTheOutputBound() throws Exception {
        assertThat(RequestedTokens.reservation(Operation.GENERATE, json("{\"max_tokens\":100}"), 400))
                .isEqualTo(200);
        assertThat(RequestedTokens.reservation(Operation.GENERATE, json("{}"), 400))
                .isEqualTo(100 + TokenReservation.DEFAULT_OUTPUT_TOKENS);
        assertThat(RequestedTokens.reservation(Operation.EMBEDDINGS, json("{}"), 400))
                .as("embeddings write nothing")
                .isEqualTo(100);
        assertThat(RequestedTokens.reservation(Operation.COUNT_TOKENS, json("{}"), 400))
                .as("a token count spends nothing")
                .isZero();
        assertThat(RequestedTokens.reservation(Operation.GENERATE, null, Long.MAX_VALUE))
                .isEqualTo(TokenReservation.MAX);
    }

    @Test
    void aLeaseIsSettledWithItsRecordsTokensNoneWithoutAnAttemptAndUnknownWithoutCounts() {
        assertThat(AdmissionStage.settledTokens(record(1, 11L, 7L))).isEqualTo(18L);
        assertThat(AdmissionStage.settledTokens(record(1, null, 7L))).isEqualTo(7L);
        assertThat(AdmissionStage.settledTokens(record(1, null, null))).isNull();
        assertThat(AdmissionStage.settledTokens(record(0, null, null))).isZero();
        assertThat(AdmissionStage.settledTokens(record(2, -3L, 4L))).isEqualTo(4L);
    }

    @Test
    void aRefusalsScopeIsTheKeyTheTeamOrTheFairShare() {
        assertThat(AdmissionStage.scopeOf(refusal(LimitScope.KEY, LimitField.RPM_LIMIT)))
                .isEqualTo("key");
        assertThat(AdmissionStage.scopeOf(refusal(LimitScope.TEAM, LimitField.MAX_BUDGET)))
                .isEqualTo("team");
        assertThat(AdmissionStage.scopeOf(refusal(LimitScope.TEAM, LimitField.FAIR_SHARE)))
                .isEqualTo("fair_share");
    }

    @Test
    void aPeersLeaseHoldsASlotAtMostOneTermFromNowAndNonsenseIsRefused() {
        long now = NOW.toEpochMilli();
        LeaseEvent forever = lease(NOW, NOW.plusSeconds(86_400), 10);
        assertThat(Leases.plausible(forever, now, 60_000).expiresAt()).isEqualTo(NOW.plusSeconds(60));
        LeaseEvent fine = lease(NOW, NOW.plusSeconds(30), 10);
        assertThat(Leases.plausible(fine, now, 60_000)).isSameAs(fine);
        assertThat(Leases.plausible(lease(NOW, NOW.plusSeconds(30), -1), now, 60_000))
                .isNull();
        assertThat(Leases.plausible(lease(null, NOW.plusSeconds(30), 1), now, 60_000))
                .isNull();
        assertThat(Leases.plausible(null, now, 60_000)).isNull();
        LeaseEvent nobody = new LeaseEvent(
                UUID.randomUUID(),
                "peer",
                LeaseEvent.Kind.REQUEST,
                LeaseEvent.Phase.OPENED,
                null,
                null,
                null,
                NOW,
                NOW.plusSeconds(30),
                1,
                null,
                null);
        assertThat(Leases.plausible(nobody, now, 60_000))
                .as("counts for no one")
                .isNull();
    }

    @Test
    void requestLeasesAreKeyedByTeamElseKeyAndAttemptsByCredential() {
        assertThat(LeasePublisher.keyOf(lease(NOW, NOW, 1))).isEqualTo("t1");
        LeaseEvent noTeam = new LeaseEvent(
                UUID.randomUUID(),
                "peer",
                LeaseEvent.Kind.REQUEST,
                LeaseEvent.Phase.OPENED,
                "k1",
                null,
                null,
                NOW,
                NOW,
                1,
                null,
                null);
        assertThat(LeasePublisher.keyOf(noTeam)).isEqualTo("k1");
        LeaseEvent attempt = new LeaseEvent(
                UUID.randomUUID(),
                "peer",
                LeaseEvent.Kind.ATTEMPT,
                LeaseEvent.Phase.OPENED,
                "k1",
                "t1",
                "c1",
                NOW,
                NOW,
                0,
                null,
                null);
        assertThat(LeasePublisher.keyOf(attempt)).isEqualTo("c1");
    }

    private static AdmissionDecision refusal(LimitScope scope, LimitField field) {
        return AdmissionDecision.refuse(scope, field, 1L, RateLimitHeaders.NONE);
    }

    private static LeaseEvent lease(Instant at, Instant expires, long reserved) {
        return new LeaseEvent(
                UUID.randomUUID(),
                "peer",
                LeaseEvent.Kind.REQUEST,
                LeaseEvent.Phase.OPENED,
                "k1",
                "t1",
                null,
                at,
                expires,
                reserved,
                null,
                null);
    }

    private static RequestCompleted record(int attempts, Long input, Long output) {
        return RequestCompleted.settled(
                UUID.randomUUID(),
                NOW,
                Protocol.OPENAI_CHAT,
                "k1",
                null,
                null,
                "m",
                null,
                attempts,
                200,
                null,
                10,
                null,
                input,
                output,
                false,
                false,
                true);
    }
}
