package io.routegateway.core.access;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import org.junit.jupiter.api.Test;

import static io.routegateway.core.select.Fixtures.NOW;
import static io.routegateway.core.select.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

class AccessDecisionTests {

    private static ReasonCode refusal(AccessDecision decision) {
        assertThat(decision).isInstanceOf(AccessDecision.Refused.class);
        return ((AccessDecision.Refused) decision).code();
    }

    @Test
    void unknownKeyIsInvalidAccessKeyWith401() {
        AccessDecision decision = AccessDecision.decide(null, Protocol.OPENAI_CHAT, "gpt-5", NOW);
        assertThat(refusal(decision)).isEqualTo(ReasonCode.INVALID_ACCESS_KEY);
        assertThat(ReasonCode.INVALID_ACCESS_KEY.httpStatus()).isEqualTo(401);
    }

    @Test
    void disabledKeyIsAccessKeyDisabled() {
        AccessKeySnapshot k = key("k").disabled().build();
        assertThat(refusal(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "gpt-5", NOW)))
                .isEqualTo(ReasonCode.ACCESS_KEY_DISABLED);
    }

    @Test
    void keyExpiredAtOrBeforeNowIsAccessKeyExpired() {
        assertThat(refusal(AccessDecision.decide(key("k").expiresAt(NOW).build(), Protocol.OPENAI_CHAT, "gpt-5", NOW)))
                .isEqualTo(ReasonCode.ACCESS_KEY_EXPIRED);
        assertThat(AccessDecision.decide(
                                key("k").expiresAt(NOW.plusSeconds(1)).build(), Protocol.OPENAI_CHAT, "gpt-5", NOW)
                        .allowed())
                .isTrue();
    }

    @Test
    void disabledIsReportedBeforeExpired() {
        AccessKeySnapshot k = key("k").disabled().expiresAt(NOW.minusSeconds(5)).build();
        assertThat(refusal(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "gpt-5", NOW)))
                .isEqualTo(ReasonCode.ACCESS_KEY_DISABLED);
    }

    @Test
    void protocolNotSelectedOnTheKeyIsProtocolFiltered() {
        AccessKeySnapshot k = key("k").protocols(Protocol.ANTHROPIC_MESSAGES).build();
        assertThat(refusal(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "gpt-5", NOW)))
                .isEqualTo(ReasonCode.PROTOCOL_FILTERED);
        assertThat(AccessDecision.decide(k, Protocol.ANTHROPIC_MESSAGES, "gpt-5", NOW)
                        .allowed())
                .isTrue();
    }

    @Test
    void keyRestrictingModelsRefusesARequestWithoutModelAsModelRequiredByFilter() {
        AccessKeySnapshot k = key("k").models("gpt-5").build();
        assertThat(refusal(AccessDecision.decide(k, Protocol.GEMINI, null, NOW)))
                .isEqualTo(ReasonCode.MODEL_REQUIRED_BY_FILTER);
        assertThat(refusal(AccessDecision.decide(k, Protocol.GEMINI, "  ", NOW)))
                .isEqualTo(ReasonCode.MODEL_REQUIRED_BY_FILTER);
    }

    @Test
    void modelOutsideTheKeysPatternsIsModelFiltered() {
        AccessKeySnapshot k = key("k").models("glm-5.3", "gpt-5*").build();
        assertThat(refusal(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "claude-opus-4-5", NOW)))
                .isEqualTo(ReasonCode.MODEL_FILTERED);
        assertThat(refusal(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "glm-5", NOW)))
                .isEqualTo(ReasonCode.MODEL_FILTERED);
        assertThat(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "glm-5.3", NOW)
                        .allowed())
                .isTrue();
        assertThat(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "gpt-5.6-sol", NOW)
                        .allowed())
                .isTrue();
        assertThat(AccessDecision.decide(k, Protocol.OPENAI_CHAT, "gpt-5", NOW).allowed())
                .isTrue();
    }

    @Test
    void oneMSuffixMatchesTheStrippedModelName() {
        AccessKeySnapshot k = key("k").models("claude-sonnet-4-5").build();
        assertThat(AccessDecision.decide(k, Protocol.ANTHROPIC_MESSAGES, "claude-sonnet-4-5[1m]", NOW)
                        .allowed())
                .isTrue();
    }

    @Test
    void unrestrictedKeyAllowsAnyProtocolAndNoModel() {
        AccessKeySnapshot k = key("k").build();
        for (Protocol protocol : Protocol.values()) {
            assertThat(AccessDecision.decide(k, protocol, null, NOW)).isEqualTo(new AccessDecision.Allowed(k));
        }
    }

    @Test
    void starAloneAdmitsEveryModel() {
        assertThat(ModelPatterns.matches("*", "anything")).isTrue();
        assertThat(ModelPatterns.matches("gpt-5*", "gpt-4")).isFalse();
    }

    @Test
    void refusalMessageStartsWithTheSpecMeaning() {
        AccessDecision.Refused refused = (AccessDecision.Refused)
                AccessDecision.decide(key("k").disabled().build(), Protocol.GEMINI, null, NOW);
        assertThat(refused.message()).startsWith("AccessKey has been deactivated");
    }
}
