package io.routegateway.core.quota;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class UsageLimitsTests {

    static final Instant NOW = Instant.parse("2026-12-01T20:00:00Z");
    static final long NOW_S = NOW.getEpochSecond();

    static ResponseHeaders headers(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return ResponseHeaders.of(map);
    }

    static Optional<UsageLimit> parse(Platform platform, int status, ResponseHeaders headers, String body) {
        return UsageLimits.parse(platform, status, headers, body, NOW, ClientEcho.NONE);
    }

    static final String CLAUDE_BODY =
            "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"This request would exceed your account's rate limit.\"}}";

    @Nested
    class Claude {

        @Test
        void aRejectedUnifiedStatusCoolsUntilTheUnifiedResetOfTheRepresentativeClaim() {
            Optional<UsageLimit> limit = parse(
                    Platform.CLAUDE,
                    429,
                    headers(
                            "anthropic-ratelimit-unified-status", "rejected",
                            "anthropic-ratelimit-unified-reset", String.valueOf(NOW_S + 3 * 3600),
                            "anthropic-ratelimit-unified-representative-claim", "five_hour"),
                    CLAUDE_BODY);
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(3 * 3600));
                assertThat(l.limitWindow()).isEqualTo("5h");
                assertThat(l.reason())
                        .isEqualTo("Claude usage limit reached: 5-hour window resets at 2026-12-01T23:00:00Z");
                assertThat(l.source()).isEqualTo("anthropic-ratelimit-unified-reset");
            });
        }

        @Test
        void headerNamesAreMatchedInAnyCase() {
            assertThat(parse(
                            Platform.CLAUDE,
                            429,
                            headers(
                                    "Anthropic-Ratelimit-Unified-Status",
                                    "Rejected",
                                    "Anthropic-Ratelimit-Unified-Reset",
                                    String.valueOf(NOW_S + 60)),
                            null))
                    .map(UsageLimit::resetsAt)
                    .contains(NOW.plusSeconds(60));
        }

        @Test
        void theLatestRejectedWindowWins() {
            Optional<UsageLimit> limit = parse(
                    Platform.CLAUDE,
                    429,
                    headers(
                            "anthropic-ratelimit-unified-status", "rejected",
                            "anthropic-ratelimit-unified-reset", String.valueOf(NOW_S + 3600),
                            "anthropic-ratelimit-unified-representative-claim", "five_hour",
                            "anthropic-ratelimit-unified-5h-status", "rejected",
                            "anthropic-ratelimit-unified-5h-reset", String.valueOf(NOW_S + 3600),
                            "anthropic-ratelimit-unified-7d-status", "rejected",
                            "anthropic-ratelimit-unified-7d-reset", String.valueOf(NOW_S + 4 * 86400)),
                    CLAUDE_BODY);
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(4 * 86400));
                assertThat(l.limitWindow()).isEqualTo("7d");
                assertThat(l.reason()).contains("7-day window resets at 2026-12-05T20:00:00Z");
            });
        }

        @Test
        void aModelWindowIsNamed() {
            Optional<UsageLimit> limit = parse(
                    Platform.CLAUDE,
                    429,
                    headers(
                            "anthropic-ratelimit-unified-7d_opus-status",
                            "rejected",
                            "anthropic-ratelimit-unified-7d_opus-reset",
                            String.valueOf(NOW_S + 86400)),
                    CLAUDE_BODY);
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.limitWindow()).isEqualTo("7d_opus");
                assertThat(l.reason()).contains("7-day opus window resets at");
            });
        }

        @Test
        void anRfc3339ResetIsRead() {
            assertThat(parse(
                            Platform.CLAUDE,
                            429,
                            headers(
                                    "anthropic-ratelimit-unified-status", "rejected",
                                    "anthropic-ratelimit-unified-reset", "2026-12-01T22:30:00Z"),
                            null))
                    .map(UsageLimit::resetsAt)
                    .contains(Instant.parse("2026-12-01T22:30:00Z"));
        }

        @Test
        void retryAfterIsTheResetWhenNoResetHeaderIsUsable() {
            assertThat(parse(
                            Platform.CLAUDE,
                            429,
                            headers(
                                    "anthropic-ratelimit-unified-status", "rejected",
                                    "anthropic-ratelimit-unified-reset", "soon",
                                    "retry-after", "900"),
                            null))
                    .hasValueSatisfying(l -> {
                        assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(900));
                        assertThat(l.source()).isEqualTo("retry-after");
                    });
        }

        @Test
        void anAllowedOrWarningStatusIsNoLimit() {
            for (String status : new String[] {"allowed", "allowed_warning"}) {
                assertThat(parse(
                                Platform.CLAUDE,
                                429,
                                headers(
                                        "anthropic-ratelimit-unified-status",
                                        status,
                                        "anthropic-ratelimit-unified-reset",
                                        String.valueOf(NOW_S + 3600)),
                                CLAUDE_BODY))
                        .as(status)
                        .isEmpty();
            }
        }

        @Test
        void anOrdinary429WithoutTheUnifiedHeadersIsNoLimit() {
            assertThat(parse(Platform.CLAUDE, 429, headers("retry-after", "30"), CLAUDE_BODY))
                    .isEmpty();
        }

        @Test
        void onlyA429CarriesTheSignal() {
            ResponseHeaders rejected = headers(
                    "anthropic-ratelimit-unified-status",
                    "rejected",
                    "anthropic-ratelimit-unified-reset",
                    String.valueOf(NOW_S + 3600));
            for (int status : new int[] {200, 400, 401, 403, 500, 529}) {
                assertThat(parse(Platform.CLAUDE, status, rejected, CLAUDE_BODY))
                        .as("status " + status)
                        .isEmpty();
            }
        }
    }

    @Nested
    class Codex {

        static String usageLimitBody(String resetsFields) {
            return "{\"error\":{\"type\":\"usage_limit_reached\",\"message\":\"The usage limit has been reached\","
                    + "\"plan_type\":\"plus\"" + resetsFields + "}}";
        }

        @Test
        void theBodyResetsAtIsTheResetAndTheExhaustedHeaderWindowNamesIt() {
            Optional<UsageLimit> limit = parse(
                    Platform.CODEX,
                    429,
                    headers(
                            "x-codex-primary-used-percent", "100",
                            "x-codex-primary-window-minutes", "300",
                            "x-codex-primary-reset-at", String.valueOf(NOW_S + 7200),
                            "x-codex-secondary-used-percent", "41",
                            "x-codex-secondary-window-minutes", "10080",
                            "x-codex-secondary-reset-at", String.valueOf(NOW_S + 5 * 86400)),
                    usageLimitBody(",\"resets_at\":" + (NOW_S + 7200)));
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(7200));
                assertThat(l.limitWindow()).isEqualTo("5h");
                assertThat(l.reason())
                        .isEqualTo("Codex usage limit reached: 5-hour window resets at 2026-12-01T22:00:00Z");
                assertThat(l.source()).isEqualTo("error.resets_at");
            });
        }

        @Test
        void theOlderResetsInSecondsIsRead() {
            assertThat(parse(Platform.CODEX, 429, ResponseHeaders.NONE, usageLimitBody(",\"resets_in_seconds\":1800")))
                    .hasValueSatisfying(l -> {
                        assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(1800));
                        assertThat(l.limitWindow()).isNull();
                        assertThat(l.reason()).contains("usage window resets at");
                    });
        }

        @Test
        void headersAloneGiveTheResetOfTheExhaustedWindow() {
            Optional<UsageLimit> limit = parse(
                    Platform.CODEX,
                    429,
                    headers(
                            "x-codex-primary-used-percent", "37.5",
                            "x-codex-primary-window-minutes", "300",
                            "x-codex-primary-reset-at", String.valueOf(NOW_S + 600),
                            "x-codex-secondary-used-percent", "100.0",
                            "x-codex-secondary-window-minutes", "10080",
                            "x-codex-secondary-reset-after-seconds", "172800"),
                    "{\"detail\":\"Too Many Requests\"}");
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(172800));
                assertThat(l.limitWindow()).isEqualTo("7d");
                assertThat(l.source()).isEqualTo("x-codex-secondary-reset-after-seconds");
            });
        }

        @Test
        void windowsBelowTheirLimitAreNoSignal() {
            assertThat(parse(
                            Platform.CODEX,
                            429,
                            headers(
                                    "x-codex-primary-used-percent",
                                    "99.9",
                                    "x-codex-primary-reset-at",
                                    String.valueOf(NOW_S + 600)),
                            "{\"error\":{\"type\":\"rate_limit_exceeded\",\"message\":\"slow down\"}}"))
                    .isEmpty();
        }

        @ParameterizedTest(name = "resets_at {0}")
        @ValueSource(strings = {"\"1800000000\"", "true", "-5", "0", "1.5e9", "null", "{}", "[1]"})
        void aResetsAtOfTheWrongTypeOrSignIsIgnored(String value) {
            assertThat(parse(Platform.CODEX, 429, ResponseHeaders.NONE, usageLimitBody(",\"resets_at\":" + value)))
                    .isEmpty();
        }

        @Test
        void aResetsAtInThePastIsIgnoredAndTheNextSourceUsed() {
            assertThat(parse(
                            Platform.CODEX,
                            429,
                            ResponseHeaders.NONE,
                            usageLimitBody(",\"resets_at\":" + (NOW_S - 60) + ",\"resets_in_seconds\":120")))
                    .map(UsageLimit::resetsAt)
                    .contains(NOW.plusSeconds(120));
            assertThat(parse(Platform.CODEX, 429, ResponseHeaders.NONE, usageLimitBody(",\"resets_at\":" + NOW_S)))
                    .isEmpty();
        }

        @Test
        void aHugeResetIsCutToTheBound() {
            Instant bound = NOW.plus(UsageLimits.MAX_COOLDOWN);
            assertThat(parse(
                            Platform.CODEX,
                            429,
                            ResponseHeaders.NONE,
                            usageLimitBody(",\"resets_at\":9223372036854775807")))
                    .map(UsageLimit::resetsAt)
                    .contains(bound);
            assertThat(parse(
                            Platform.CODEX,
                            429,
                            ResponseHeaders.NONE,
                            usageLimitBody(",\"resets_at\":123456789012345678901234567890")))
                    .map(UsageLimit::resetsAt)
                    .contains(bound);
            assertThat(parse(
                            Platform.CODEX,
                            429,
                            ResponseHeaders.NONE,
                            usageLimitBody(",\"resets_in_seconds\":99999999999")))
                    .map(UsageLimit::resetsAt)
                    .contains(bound);
        }

        @Test
        void aUsageLimitTypeTheClientSentIsNotEvidence() {
            byte[] request = "{\"input\":\"print usage_limit_reached\"}".getBytes(StandardCharsets.UTF_8);
            assertThat(UsageLimits.parse(
                            Platform.CODEX,
                            429,
                            ResponseHeaders.NONE,
                            usageLimitBody(",\"resets_at\":" + (NOW_S + 600)),
                            NOW,
                            ClientEcho.of(request, "https://chatgpt.example/backend-api/codex/responses")))
                    .isEmpty();
        }

        @Test
        void malformedOrHugeBodiesAreNoSignal() {
            assertThat(parse(Platform.CODEX, 429, ResponseHeaders.NONE, "not json"))
                    .isEmpty();
            assertThat(parse(Platform.CODEX, 429, ResponseHeaders.NONE, "{\"error\":\"usage_limit_reached\"}"))
                    .isEmpty();
            String huge = usageLimitBody(",\"resets_at\":" + (NOW_S + 600) + ",\"pad\":\"" + "x".repeat(70_000) + "\"");
            assertThat(parse(Platform.CODEX, 429, ResponseHeaders.NONE, huge)).isEmpty();
        }
    }

    @Nested
    class Gemini {

        static String resourceExhausted(String details) {
            return "{\"error\":{\"code\":429,\"message\":\"Resource has been exhausted (e.g. check quota).\","
                    + "\"status\":\"RESOURCE_EXHAUSTED\",\"details\":[" + details + "]}}";
        }

        static final String RETRY_34S =
                "{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"34.074824224s\"}";

        static String quotaFailure(String quotaId) {
            return "{\"@type\":\"type.googleapis.com/google.rpc.QuotaFailure\",\"violations\":[{"
                    + "\"quotaMetric\":\"generativelanguage.googleapis.com/generate_content_free_tier_requests\","
                    + "\"quotaId\":\"" + quotaId + "\"}]}";
        }

        @Test
        void aPerMinuteQuotaCoolsForTheRetryDelayRoundedUp() {
            Optional<UsageLimit> limit = parse(
                    Platform.GEMINI,
                    429,
                    ResponseHeaders.NONE,
                    resourceExhausted(
                            quotaFailure("GenerateRequestsPerMinutePerProjectPerModel-FreeTier") + "," + RETRY_34S));
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(35));
                assertThat(l.limitWindow()).isEqualTo("1m");
                assertThat(l.source()).isEqualTo("RetryInfo.retryDelay");
            });
        }

        @Test
        void aPerDayQuotaCoolsUntilTheNextMidnightPacificTime() {
            Optional<UsageLimit> limit = parse(
                    Platform.GEMINI,
                    429,
                    ResponseHeaders.NONE,
                    resourceExhausted(
                            quotaFailure("GenerateRequestsPerDayPerProjectPerModel-FreeTier") + "," + RETRY_34S));
            // 20:00 UTC on 1 December is 12:00 PST; the next Pacific midnight is 08:00 UTC on 2 December
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.resetsAt()).isEqualTo(Instant.parse("2026-12-02T08:00:00Z"));
                assertThat(l.limitWindow()).isEqualTo("1d");
                assertThat(l.reason())
                        .isEqualTo("Gemini usage limit reached: 1-day window resets at 2026-12-02T08:00:00Z");
            });
        }

        @Test
        void codeAssistsQuotaResetTimeStampIsTheReset() {
            String errorInfo = "{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"QUOTA_EXHAUSTED\","
                    + "\"domain\":\"cloudcode-pa.googleapis.com\",\"metadata\":{\"quotaResetDelay\":\"7200s\","
                    + "\"quotaResetTimeStamp\":\"2026-12-01T22:15:00Z\"}}";
            Optional<UsageLimit> limit =
                    parse(Platform.GEMINI, 429, ResponseHeaders.NONE, resourceExhausted(errorInfo + "," + RETRY_34S));
            assertThat(limit).hasValueSatisfying(l -> {
                assertThat(l.resetsAt()).isEqualTo(Instant.parse("2026-12-01T22:15:00Z"));
                assertThat(l.source()).isEqualTo("ErrorInfo.metadata.quotaResetTimeStamp");
            });
        }

        @Test
        void codeAssistsQuotaResetDelayIsReadWhenTheStampIsMissingOrPast() {
            String errorInfo =
                    "{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"RATE_LIMIT_EXCEEDED\","
                            + "\"metadata\":{\"quotaResetDelay\":\"479.417207ms\",\"quotaResetTimeStamp\":\"2020-01-01T00:00:00Z\"}}";
            assertThat(parse(Platform.GEMINI, 429, ResponseHeaders.NONE, resourceExhausted(errorInfo)))
                    .hasValueSatisfying(l -> {
                        assertThat(l.resetsAt()).isEqualTo(NOW.plusSeconds(1));
                        assertThat(l.source()).isEqualTo("ErrorInfo.metadata.quotaResetDelay");
                    });
        }

        @Test
        void theNextPacificMidnightFollowsDaylightSavingTime() {
            // 1 July: PDT (UTC-7), midnight is 07:00 UTC
            assertThat(UsageLimits.nextPacificMidnight(Instant.parse("2026-07-01T12:00:00Z")))
                    .isEqualTo(Instant.parse("2026-07-02T07:00:00Z"));
        }

        @Test
        void millisecondDelaysAreRead() {
            assertThat(
                            parse(
                                    Platform.GEMINI,
                                    429,
                                    ResponseHeaders.NONE,
                                    resourceExhausted(
                                            "{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"900ms\"}")))
                    .map(UsageLimit::resetsAt)
                    .contains(NOW.plusSeconds(1));
        }

        @ParameterizedTest(name = "retryDelay {0}")
        @ValueSource(strings = {"\"-5s\"", "\"0s\"", "\"34\"", "\"5m\"", "\"1e9s\"", "34", "\"34s\\u0000\"", "null"})
        void malformedDelaysAreNoSignal(String delay) {
            assertThat(parse(
                            Platform.GEMINI,
                            429,
                            ResponseHeaders.NONE,
                            resourceExhausted("{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":"
                                    + delay + "}")))
                    .isEmpty();
        }

        @Test
        void aHugeDelayIsCutToTheBound() {
            assertThat(
                            parse(
                                    Platform.GEMINI,
                                    429,
                                    ResponseHeaders.NONE,
                                    resourceExhausted(
                                            "{\"@type\":\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"999999999999s\"}")))
                    .map(UsageLimit::resetsAt)
                    .contains(NOW.plus(UsageLimits.MAX_COOLDOWN));
        }

        @Test
        void resourceExhaustedWithoutDetailsIsNoSignal() {
            assertThat(parse(Platform.GEMINI, 429, ResponseHeaders.NONE, resourceExhausted("")))
                    .isEmpty();
            assertThat(parse(
                            Platform.GEMINI,
                            429,
                            ResponseHeaders.NONE,
                            "{\"error\":{\"code\":429,\"status\":\"RESOURCE_EXHAUSTED\",\"details\":\"none\"}}"))
                    .isEmpty();
            assertThat(parse(
                            Platform.GEMINI,
                            429,
                            ResponseHeaders.NONE,
                            "{\"error\":{\"code\":429,\"status\":\"UNAVAILABLE\",\"details\":[" + RETRY_34S + "]}}"))
                    .isEmpty();
        }

        @Test
        void aQuotaIdTheClientSentIsNotEvidenceOfADailyLimit() {
            String quotaId = "GenerateRequestsPerDayPerProjectPerModel-FreeTier";
            byte[] request =
                    ("{\"contents\":[{\"parts\":[{\"text\":\"" + quotaId + "\"}]}]}").getBytes(StandardCharsets.UTF_8);
            Optional<UsageLimit> limit = UsageLimits.parse(
                    Platform.GEMINI,
                    429,
                    ResponseHeaders.NONE,
                    resourceExhausted(quotaFailure(quotaId) + "," + RETRY_34S),
                    NOW,
                    ClientEcho.of(request, null));
            // only the retry delay is left as evidence
            assertThat(limit).map(UsageLimit::resetsAt).contains(NOW.plusSeconds(35));
        }
    }

    @Test
    void grokHasNoSignalAndNeitherDoOpenAiRelays() {
        ResponseHeaders everything = headers(
                "anthropic-ratelimit-unified-status", "rejected",
                "anthropic-ratelimit-unified-reset", String.valueOf(NOW_S + 3600),
                "x-codex-primary-used-percent", "100",
                "x-codex-primary-reset-at", String.valueOf(NOW_S + 3600),
                "retry-after", "3600");
        String body = "{\"error\":{\"type\":\"usage_limit_reached\",\"resets_at\":" + (NOW_S + 3600) + "}}";
        assertThat(parse(Platform.GROK, 429, everything, body)).isEmpty();
        assertThat(parse(Platform.OPENAI, 429, everything, body)).isEmpty();
    }

    @Test
    void onePlatformsSignalIsNotReadForAnother() {
        ResponseHeaders claude = headers(
                "anthropic-ratelimit-unified-status",
                "rejected",
                "anthropic-ratelimit-unified-reset",
                String.valueOf(NOW_S + 3600));
        assertThat(parse(Platform.CODEX, 429, claude, null)).isEmpty();
        assertThat(parse(Platform.GEMINI, 429, claude, null)).isEmpty();
    }

    @Nested
    class HeaderValues {

        @ParameterizedTest(name = "reset {0}")
        @ValueSource(strings = {"-1", "0", "abc", "1800000000\u0000", "1.8e9", "", " ", "99999999999999999999999"})
        void malformedResetsAreIgnored(String value) {
            assertThat(UsageLimits.instantValue(value, NOW)).isNull();
        }

        @Test
        void anOverlongValueIsNotRead() {
            assertThat(UsageLimits.instantValue("1".repeat(100), NOW)).isNull();
            assertThat(UsageLimits.secondsValue("1".repeat(100))).isNull();
            assertThat(UsageLimits.percentValue("1".repeat(100))).isNull();
        }

        @Test
        void aLongJustPastItsRangeIsAFarResetCutToTheBound() {
            assertThat(UsageLimits.instantValue("9999999999999999999", NOW))
                    .isEqualTo(NOW.plus(UsageLimits.MAX_COOLDOWN));
        }

        @Test
        void aPastResetGivesNoLimit() {
            assertThat(parse(
                            Platform.CLAUDE,
                            429,
                            headers(
                                    "anthropic-ratelimit-unified-status",
                                    "rejected",
                                    "anthropic-ratelimit-unified-reset",
                                    String.valueOf(NOW_S - 1)),
                            null))
                    .isEmpty();
        }

        @Test
        void windowLabels() {
            assertThat(UsageLimits.windowLabel(300)).isEqualTo("5h");
            assertThat(UsageLimits.windowLabel(10080)).isEqualTo("7d");
            assertThat(UsageLimits.windowLabel(1440)).isEqualTo("1d");
            assertThat(UsageLimits.windowLabel(90)).isEqualTo("90m");
            assertThat(UsageLimits.windowLabel(0)).isNull();
            assertThat(UsageLimits.windowLabel(Long.MAX_VALUE)).isNull();
        }

        @Test
        void descriptions() {
            assertThat(UsageLimits.describe("5h")).isEqualTo("5-hour window");
            assertThat(UsageLimits.describe("7d_sonnet")).isEqualTo("7-day sonnet window");
            assertThat(UsageLimits.describe("1m")).isEqualTo("1-minute window");
            assertThat(UsageLimits.describe(null)).isEqualTo("usage window");
            assertThat(UsageLimits.describe("x")).isEqualTo("usage window");
            assertThat(UsageLimits.describe("5y")).isEqualTo("usage window");
        }
    }

    @Nested
    class Refine {

        static final ResponseHeaders REJECTED = headers(
                "anthropic-ratelimit-unified-status", "rejected",
                "anthropic-ratelimit-unified-reset", String.valueOf(NOW_S + 3600),
                "anthropic-ratelimit-unified-representative-claim", "five_hour");
        static final Verdict.Transient STATUS_429 =
                new Verdict.Transient(FailureKind.UPSTREAM_STATUS, 429, "upstream returned 429", CLAUDE_BODY, true);

        @Test
        void anOfficialAccountsTransient429WithASignalBecomesAQuotaVerdictWithTheReset() {
            Verdict refined = UsageLimits.refine(
                    STATUS_429,
                    CredentialKind.OFFICIAL,
                    Platform.CLAUDE,
                    429,
                    REJECTED,
                    CLAUDE_BODY,
                    NOW,
                    ClientEcho.NONE);
            assertThat(refined).isInstanceOfSatisfying(Verdict.QuotaExhausted.class, quota -> {
                assertThat(quota.status()).isEqualTo(429);
                assertThat(quota.resetsAt()).isEqualTo(NOW.plusSeconds(3600));
                assertThat(quota.limitWindow()).isEqualTo("5h");
                assertThat(quota.message()).startsWith("Claude usage limit reached: 5-hour window resets at");
                assertThat(quota.body()).isEqualTo(CLAUDE_BODY);
            });
        }

        @Test
        void apiCredentialsAreNotRefined() {
            assertThat(UsageLimits.refine(
                            STATUS_429,
                            CredentialKind.API,
                            Platform.CLAUDE,
                            429,
                            REJECTED,
                            CLAUDE_BODY,
                            NOW,
                            ClientEcho.NONE))
                    .isSameAs(STATUS_429);
        }

        @Test
        void successesNotAFailureAndRevocationsAreKept() {
            Verdict permanent = new Verdict.Permanent(FailureKind.UPSTREAM_STATUS, 429, "invalid_grant", CLAUDE_BODY);
            for (Verdict verdict : new Verdict[] {Verdict.SUCCESS, new Verdict.NotAFailure(429), permanent}) {
                assertThat(UsageLimits.refine(
                                verdict,
                                CredentialKind.OFFICIAL,
                                Platform.CLAUDE,
                                429,
                                REJECTED,
                                CLAUDE_BODY,
                                NOW,
                                ClientEcho.NONE))
                        .isSameAs(verdict);
            }
        }

        @Test
        void withoutASignalTheVerdictIsKept() {
            assertThat(UsageLimits.refine(
                            STATUS_429,
                            CredentialKind.OFFICIAL,
                            Platform.CLAUDE,
                            429,
                            ResponseHeaders.NONE,
                            CLAUDE_BODY,
                            NOW,
                            ClientEcho.NONE))
                    .isSameAs(STATUS_429);
            assertThat(UsageLimits.refine(
                            STATUS_429,
                            CredentialKind.OFFICIAL,
                            Platform.CLAUDE,
                            null,
                            REJECTED,
                            CLAUDE_BODY,
                            NOW,
                            ClientEcho.NONE))
                    .isSameAs(STATUS_429);
        }

        @Test
        void aClassicQuotaVerdictGainsTheReset() {
            Verdict.QuotaExhausted classic = new Verdict.QuotaExhausted(429, "insufficient quota", CLAUDE_BODY);
            Verdict refined = UsageLimits.refine(
                    classic,
                    CredentialKind.OFFICIAL,
                    Platform.CLAUDE,
                    429,
                    REJECTED,
                    CLAUDE_BODY,
                    NOW,
                    ClientEcho.NONE);
            assertThat(((Verdict.QuotaExhausted) refined).resetsAt()).isEqualTo(NOW.plusSeconds(3600));
        }

        @Test
        void theBoundIsEightDays() {
            assertThat(UsageLimits.MAX_COOLDOWN).isEqualTo(Duration.ofDays(8));
        }
    }
}
