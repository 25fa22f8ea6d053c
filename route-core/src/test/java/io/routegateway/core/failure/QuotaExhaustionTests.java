package io.routegateway.core.failure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class QuotaExhaustionTests {

    /** The spec's new-api spent-balance response, verbatim. */
    static final String NEW_API_SPENT_BALANCE = """
            {
              "error": {
                "type": "new_api_error",
                "message": "用户额度不足, 剩余额度: ＄-0.398052 (request id: 20260902...)"
              },
              "type": "error"
            }""";

    /** The spec's exhausted budget pool response, verbatim. */
    static final String BUDGET_POOL_EXHAUSTED = """
            {
              "error": {
                "message": "Budget pool quota has been exhausted. Please ask an administrator to increase the limit or select another budget pool.",
                "type": "bad_response_status_code",
                "param": "",
                "code": "bad_response_status_code"
              }
            }""";

    @ParameterizedTest(name = "code {0}")
    @ValueSource(
            strings = {
                "insufficient_quota",
                "INSUFFICIENT_QUOTA",
                "Insufficient-Quota",
                "insufficient quota",
                "insufficientquota",
                "account_insufficient_quota_error",
                "quota_exhausted",
                "Quota-Exhausted",
                "QuotaExhausted",
                "usage_exhausted",
                "USAGE-EXHAUSTED",
                "usage exhausted"
            })
    void normalizedErrorCodeMatches(String code) {
        assertThat(QuotaExhaustion.matches(code, null, "something went wrong")).isTrue();
    }

    @ParameterizedTest(name = "code {0} does not match")
    @ValueSource(strings = {"rate_limit_exceeded", "quota_warning", "insufficient_balance_soon", "429", ""})
    void otherCodesDoNotMatch(String code) {
        assertThat(QuotaExhaustion.matches(code, null, "something went wrong")).isFalse();
    }

    @Test
    void normalizationRemovesUnderscoresDashesAndSpaces() {
        assertThat(QuotaExhaustion.normalizeCode("In_Sufficient-Quota Now")).isEqualTo("insufficientquotanow");
    }

    @ParameterizedTest(name = "phrase in message: {0}")
    @ValueSource(
            strings = {
                "今日额度已耗尽，请明天再试",
                "账户配额耗尽",
                "quota exhausted",
                "Monthly Quota Exhausted for key",
                "insufficient quota",
                "Error: INSUFFICIENT QUOTA",
                "quota has been exhausted",
                "Budget pool QUOTA HAS BEEN EXHAUSTED."
            })
    void fixedMessagePhraseMatches(String message) {
        assertThat(QuotaExhaustion.matches(null, null, message)).isTrue();
    }

    @ParameterizedTest(name = "message {0} does not match")
    @ValueSource(strings = {"rate limit reached", "quota almost exhausted soon", "额度不足", "Overloaded"})
    void otherMessagesDoNotMatch(String message) {
        assertThat(QuotaExhaustion.matches(null, null, message)).isFalse();
    }

    @Test
    void newApiSpentBalanceEnvelopeMatches() {
        assertThat(QuotaExhaustion.inErrorBody(NEW_API_SPENT_BALANCE)).isTrue();
    }

    @Test
    void newApiTypeIsCaseInsensitive() {
        assertThat(QuotaExhaustion.matches(null, "NEW_API_ERROR", "用户额度不足, 剩余额度: ＄-1"))
                .isTrue();
        assertThat(QuotaExhaustion.matches(null, "New_Api_Error", "用户额度不足")).isTrue();
    }

    @Test
    void relayedBalanceMessageWithAnotherTypeDoesNotMatch() {
        assertThat(
                        QuotaExhaustion.inErrorBody(
                                "{\"error\":{\"type\":\"upstream_error\",\"message\":\"用户额度不足, 剩余额度: ＄-0.39\"},\"type\":\"error\"}"))
                .isFalse();
    }

    @Test
    void balanceMessageMustBeAtTheStart() {
        assertThat(QuotaExhaustion.matches(null, "new_api_error", "上游返回: 用户额度不足"))
                .isFalse();
        assertThat(QuotaExhaustion.matches(null, "new_api_error", "  用户额度不足")).isTrue();
    }

    @Test
    void topLevelTypeNeverCountsForTheNewApiRule() {
        assertThat(QuotaExhaustion.inErrorBody(
                        "{\"error\":{\"message\":\"用户额度不足, 剩余额度: ＄-0.39\"},\"type\":\"new_api_error\"}"))
                .isFalse();
        assertThat(QuotaExhaustion.inErrorBody("{\"type\":\"error\",\"message\":\"用户额度不足, 剩余额度: ＄-0.39\"}"))
                .isFalse();
    }

    @Test
    void budgetPoolBodyMatchesThePhraseRule() {
        assertThat(QuotaExhaustion.inErrorBody(BUDGET_POOL_EXHAUSTED)).isTrue();
    }

    @Test
    void plainTextErrorBodyIsItsOwnMessage() {
        assertThat(QuotaExhaustion.inErrorBody("insufficient quota for this key"))
                .isTrue();
        assertThat(QuotaExhaustion.inErrorBody("bad gateway")).isFalse();
        assertThat(QuotaExhaustion.inErrorBody(null)).isFalse();
    }

    @Test
    void semanticFailureFieldsAreMatched() {
        assertThat(QuotaExhaustion.matches(new SemanticResult.Failure("x", "insufficient_quota", null, "{}")))
                .isTrue();
        assertThat(QuotaExhaustion.matches(new SemanticResult.Failure("Overloaded", null, "overloaded_error", "{}")))
                .isFalse();
    }
}
