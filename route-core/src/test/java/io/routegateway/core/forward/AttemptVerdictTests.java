package io.routegateway.core.forward;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import io.routegateway.core.bridge.BridgeException;
import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.StreamCompletion;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptVerdict.BridgeFailure;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.quota.ResponseHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static io.routegateway.core.model.CredentialKind.API;
import static io.routegateway.core.model.CredentialKind.OFFICIAL;
import static org.assertj.core.api.Assertions.assertThat;

/** One row per way an attempt's verdict is decided: classification, usage-limit refinement, bridge. */
class AttemptVerdictTests {

    static final Instant NOW = Instant.parse("2026-12-01T20:00:00Z");
    static final Instant IN_3H = NOW.plusSeconds(3 * 3600);

    static final String CHAT_OK = "{\"choices\":[{\"message\":{\"content\":\"Hello\"},\"finish_reason\":\"stop\"}]}";
    static final String RATE_LIMITED = "{\"error\":{\"message\":\"Rate limit reached for requests\"}}";
    static final String REVOKED = "{\"error\":\"invalid_grant\",\"error_description\":\"invalid_grant\"}";
    static final String INSUFFICIENT_QUOTA =
            "{\"error\":{\"message\":\"You exceeded your current quota\",\"code\":\"insufficient_quota\"}}";
    static final String OVERLOADED_200 =
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"," + "\"message\":\"Overloaded\"}}";
    static final String TRUNCATED_STREAM = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
    static final String CLAUDE_RATE_LIMITED =
            "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"rate limited\"}}";
    static final String CODEX_USAGE_LIMIT = "{\"error\":{\"type\":\"usage_limit_reached\","
            + "\"message\":\"The usage limit has been reached\",\"resets_at\":" + IN_3H.getEpochSecond() + "}}";
    static final String GEMINI_RETRY_34S = "{\"error\":{\"code\":429,\"message\":\"Resource has been exhausted"
            + " (e.g. check quota).\",\"status\":\"RESOURCE_EXHAUSTED\",\"details\":[{\"@type\":"
            + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"34.074824224s\"}]}}";
    static final ResponseHeaders CLAUDE_REJECTED = headers(
            "anthropic-ratelimit-unified-status", "rejected",
            "anthropic-ratelimit-unified-reset", String.valueOf(IN_3H.getEpochSecond()),
            "anthropic-ratelimit-unified-representative-claim", "five_hour");
    static final BridgeFailure NOT_JSON = new BridgeFailure("openai_chat->gemini", "upstream response is not JSON");

    static ResponseHeaders headers(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return ResponseHeaders.of(map);
    }

    /** One attempt and the verdict it must get. */
    record Row(
            String name,
            UpstreamOutcome outcome,
            CredentialKind kind,
            Platform platform,
            ResponseHeaders headers,
            BridgeFailure bridgeFailure,
            Verdict expected) {

        @Override
        public String toString() {
            return name;
        }
    }

    static Row row(String name, UpstreamOutcome outcome, CredentialKind kind, Platform platform, Verdict expected) {
        return new Row(name, outcome, kind, platform, ResponseHeaders.NONE, null, expected);
    }

    static UpstreamOutcome answer(int status, String body) {
        return UpstreamOutcome.response(status, body, false);
    }

    static Verdict.Transient statusFailure(int status, String body, boolean retrySame) {
        return new Verdict.Transient(
                FailureKind.UPSTREAM_STATUS, status, "upstream returned " + status, body, retrySame);
    }

    static Stream<Row> rows() {
        return Stream.of(
                row("success", answer(200, CHAT_OK), API, Platform.OPENAI, Verdict.SUCCESS),
                row(
                        "not a failure: a client-side status",
                        answer(400, "{\"error\":{\"message\":\"bad parameter\"}}"),
                        OFFICIAL,
                        Platform.CODEX,
                        new Verdict.NotAFailure(400)),
                row(
                        "transient status",
                        answer(503, RATE_LIMITED),
                        API,
                        Platform.OPENAI,
                        statusFailure(503, RATE_LIMITED, true)),
                row(
                        "transport failure",
                        UpstreamOutcome.transportFailure("connection refused", false),
                        API,
                        Platform.OPENAI,
                        new Verdict.Transient(FailureKind.TRANSPORT, null, "connection refused", null, true)),
                row(
                        "permanent: a void grant",
                        answer(401, REVOKED),
                        OFFICIAL,
                        Platform.CLAUDE,
                        new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 401, "invalid_grant", REVOKED)),
                row(
                        "quota without a reset",
                        answer(429, INSUFFICIENT_QUOTA),
                        API,
                        Platform.OPENAI,
                        new Verdict.QuotaExhausted(429, "You exceeded your current quota", INSUFFICIENT_QUOTA)),
                row(
                        "semantic failure in a 2xx answer",
                        answer(200, OVERLOADED_200),
                        API,
                        Platform.CLAUDE,
                        new Verdict.Transient(
                                FailureKind.SEMANTIC_RESPONSE_TRANSIENT, 200, "Overloaded", OVERLOADED_200, false)),
                row(
                        "stream truncated before its terminal marker",
                        UpstreamOutcome.bufferedStream(200, TRUNCATED_STREAM, false),
                        API,
                        Platform.OPENAI,
                        new Verdict.Transient(
                                FailureKind.SEMANTIC_RESPONSE_TRANSIENT,
                                200,
                                StreamCompletion.DISCONNECTED_MESSAGE,
                                TRUNCATED_STREAM,
                                false)),
                new Row(
                        "official claude: rejected unified limit cools until its reset",
                        answer(429, CLAUDE_RATE_LIMITED),
                        OFFICIAL,
                        Platform.CLAUDE,
                        CLAUDE_REJECTED,
                        null,
                        new Verdict.QuotaExhausted(
                                429,
                                "Claude usage limit reached: 5-hour window resets at " + IN_3H,
                                CLAUDE_RATE_LIMITED,
                                IN_3H,
                                "5h")),
                row(
                        "official codex: usage_limit_reached cools until resets_at",
                        answer(429, CODEX_USAGE_LIMIT),
                        OFFICIAL,
                        Platform.CODEX,
                        new Verdict.QuotaExhausted(
                                429,
                                "Codex usage limit reached: usage window resets at " + IN_3H,
                                CODEX_USAGE_LIMIT,
                                IN_3H,
                                null)),
                row(
                        "official codex model test: the same verdict as a request",
                        UpstreamOutcome.response(429, CODEX_USAGE_LIMIT, true),
                        OFFICIAL,
                        Platform.CODEX,
                        new Verdict.QuotaExhausted(
                                429,
                                "Codex usage limit reached: usage window resets at " + IN_3H,
                                CODEX_USAGE_LIMIT,
                                IN_3H,
                                null)),
                row(
                        "official gemini: RetryInfo cools for the delay rounded up",
                        answer(429, GEMINI_RETRY_34S),
                        OFFICIAL,
                        Platform.GEMINI,
                        new Verdict.QuotaExhausted(
                                429,
                                "Gemini usage limit reached: usage window resets at " + NOW.plusSeconds(35),
                                GEMINI_RETRY_34S,
                                NOW.plusSeconds(35),
                                null)),
                row(
                        "official grok: no signal, the ordinary status failure",
                        answer(429, RATE_LIMITED),
                        OFFICIAL,
                        Platform.GROK,
                        statusFailure(429, RATE_LIMITED, true)),
                row(
                        "official account without a signal: the ordinary status failure",
                        answer(429, RATE_LIMITED),
                        OFFICIAL,
                        Platform.CODEX,
                        statusFailure(429, RATE_LIMITED, true)),
                new Row(
                        "api key: the same claude signal is not read",
                        answer(429, CLAUDE_RATE_LIMITED),
                        API,
                        Platform.CLAUDE,
                        CLAUDE_REJECTED,
                        null,
                        statusFailure(429, CLAUDE_RATE_LIMITED, true)),
                row(
                        "api key: the same codex body is not read",
                        answer(429, CODEX_USAGE_LIMIT),
                        API,
                        Platform.CODEX,
                        statusFailure(429, CODEX_USAGE_LIMIT, true)),
                new Row(
                        "bridge failure replaces a success",
                        answer(200, CHAT_OK),
                        API,
                        Platform.GEMINI,
                        ResponseHeaders.NONE,
                        NOT_JSON,
                        new Verdict.Transient(
                                FailureKind.RESPONSE_TRANSFORM,
                                200,
                                "the bridge openai_chat->gemini could not convert the upstream's answer:"
                                        + " upstream response is not JSON",
                                null,
                                false)),
                new Row(
                        "bridge failure does not replace a failure",
                        answer(503, RATE_LIMITED),
                        API,
                        Platform.GEMINI,
                        ResponseHeaders.NONE,
                        NOT_JSON,
                        statusFailure(503, RATE_LIMITED, true)),
                new Row(
                        "bridge failure does not replace a not-a-failure answer",
                        answer(404, "{\"error\":{\"message\":\"no such model\"}}"),
                        API,
                        Platform.GEMINI,
                        ResponseHeaders.NONE,
                        NOT_JSON,
                        new Verdict.NotAFailure(404)),
                new Row(
                        "bridge failure does not replace a usage limit",
                        answer(429, CLAUDE_RATE_LIMITED),
                        OFFICIAL,
                        Platform.CLAUDE,
                        CLAUDE_REJECTED,
                        NOT_JSON,
                        new Verdict.QuotaExhausted(
                                429,
                                "Claude usage limit reached: 5-hour window resets at " + IN_3H,
                                CLAUDE_RATE_LIMITED,
                                IN_3H,
                                "5h")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void theVerdictOfOneAttempt(Row row) {
        assertThat(AttemptVerdict.of(
                        row.outcome(),
                        ClientEcho.NONE,
                        row.kind(),
                        row.platform(),
                        row.headers(),
                        NOW,
                        row.bridgeFailure()))
                .isEqualTo(row.expected());
    }

    @Test
    void aUsageLimitMarkerTheClientSentIsNotEvidence() {
        ClientEcho echoed = ClientEcho.of("{\"input\":\"usage_limit_reached\"}".getBytes(), null);
        assertThat(AttemptVerdict.of(
                        answer(429, CODEX_USAGE_LIMIT), echoed, OFFICIAL, Platform.CODEX, ResponseHeaders.NONE, NOW))
                .isEqualTo(statusFailure(429, CODEX_USAGE_LIMIT, true));
    }

    @Test
    void aResetThatHasPassedIsNoUsageLimit() {
        assertThat(AttemptVerdict.of(
                        answer(429, CODEX_USAGE_LIMIT),
                        ClientEcho.NONE,
                        OFFICIAL,
                        Platform.CODEX,
                        ResponseHeaders.NONE,
                        IN_3H.plusSeconds(1)))
                .isEqualTo(statusFailure(429, CODEX_USAGE_LIMIT, true));
    }

    @Test
    void aCallerThatConvertsAfterJudgingGetsTheSameRuleAlone() {
        assertThat(AttemptVerdict.afterConversion(Verdict.SUCCESS, 200, NOT_JSON))
                .isEqualTo(NOT_JSON.verdict(200));
        assertThat(AttemptVerdict.afterConversion(Verdict.SUCCESS, 200, null)).isSameAs(Verdict.SUCCESS);
        Verdict failure = statusFailure(502, RATE_LIMITED, true);
        assertThat(AttemptVerdict.afterConversion(failure, 502, NOT_JSON)).isSameAs(failure);
    }

    @Test
    void aBridgeFailureNamesTheBridgeExceptionsReasonOrOnlyAnUnexpectedExceptionsType() {
        assertThat(BridgeFailure.of("openai_chat->gemini", new BridgeException("missing candidates")))
                .isEqualTo(new BridgeFailure("openai_chat->gemini", "missing candidates"));
        // an unexpected exception's message may quote the upstream's answer
        assertThat(BridgeFailure.of("openai_chat->gemini", new IllegalStateException("saw sk-secret in text")))
                .isEqualTo(new BridgeFailure("openai_chat->gemini", "IllegalStateException"));
        assertThat(NOT_JSON.verdict(null).status()).isNull();
    }
}
