package io.routegateway.gateway.forward;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream.Behaviour;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Official (subscription) accounts' usage-limit answers, one per platform in the form the platform
 * sends it: the official account {@code a} (priority 0, the client's protocol native to it) answers
 * 429 with its reset, the api key {@code b} (priority 1, an OpenAI-compatible relay) serves; the client gets {@code b}'s answer, {@code a} is charged one
 * {@code quota-exhaustion-recorded.v1} carrying {@code resets_at}, and this replica's view cools
 * {@code a} until exactly then.
 */
@QuarkusTest
class OfficialUsageLimitTests extends GatewayTestBase {

    /** A native Anthropic request: the official Claude account serves it natively, before the bridged api key. */
    static final String MESSAGES =
            "{\"model\":\"claude-opus-4-5\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    private String a;
    private String b;
    private String keyId;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
    }

    private void pool(Platform platform, String model) {
        String group = Pool.uid("g");
        upstream.on(b, ok());
        install(
                List.of(
                        Pool.credential(a)
                                .official(platform)
                                .oauth(new OAuthStatus(
                                        AuthState.AUTHORIZED, clock.instant().plusSeconds(3600), "acct-" + a, null))
                                .groups(group)
                                .priority(0)
                                .build(box),
                        Pool.credential(b)
                                .serves(model)
                                .groups(group)
                                .priority(1)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private static Behaviour answer(int status, Map<String, String> headers, String body) {
        return (request, ignored, number) -> {
            request.response().setStatusCode(status).putHeader("content-type", "application/json");
            headers.forEach(request.response()::putHeader);
            request.response().end(body);
        };
    }

    /** The one outcome of {@code a}: a quota event with the reset; the client saw {@code b}'s answer. */
    private CredentialEvent.QuotaExhaustionRecorded servedByBAndCooled(HttpResponse<String> response, Instant reset) {
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("hello");
        assertThat(upstream.count(a))
                .as("a usage limit is never retried on the same account")
                .isEqualTo(1);
        assertThat(upstream.count(b)).isEqualTo(1);
        List<CredentialEvent> events = outcomes(a, list -> !list.isEmpty());
        assertThat(events).hasSize(1);
        assertThat(events.get(0)).isInstanceOf(CredentialEvent.QuotaExhaustionRecorded.class);
        CredentialEvent.QuotaExhaustionRecorded quota = (CredentialEvent.QuotaExhaustionRecorded) events.get(0);
        assertThat(quota.status()).isEqualTo(429);
        assertThat(quota.resetsAt()).isEqualTo(reset);
        CredentialSnapshot cooled = views.pool().credential(a).orElseThrow();
        assertThat(cooled.account().status()).as("cooled, not flipped to error").isEqualTo(AccountStatus.OK);
        assertThat(cooled.account().cooldownUntil()).isEqualTo(reset);
        assertThat(cooled.account().lastFailureMessage()).isEqualTo(quota.message());
        return quota;
    }

    @Test
    void codexUsageLimitReachedCoolsTheAccountUntilResetsAtAndTheRequestNamedTheAccount() {
        pool(Platform.CODEX, "gpt-5");
        Instant reset = clock.instant().plus(Duration.ofHours(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        long epoch = reset.getEpochSecond();
        upstream.on(
                a,
                answer(
                        429,
                        Map.of(
                                "x-codex-primary-used-percent", "100",
                                "x-codex-primary-window-minutes", "300",
                                "x-codex-primary-reset-at", Long.toString(epoch)),
                        "{\"error\":{\"type\":\"usage_limit_reached\",\"message\":\"The usage limit has been reached\","
                                + "\"plan_type\":\"plus\",\"resets_at\":" + epoch + "}}"));

        CredentialEvent.QuotaExhaustionRecorded quota =
                servedByBAndCooled(post("/v1/chat/completions", keyId, chat("gpt-5")), reset);

        assertThat(quota.limitWindow()).isEqualTo("5h");
        assertThat(quota.message()).isEqualTo("Codex usage limit reached: 5-hour window resets at " + reset);
        assertThat(quota.responseBody()).contains("usage_limit_reached");
        assertThat(upstream.hits(a).get(0).headers())
                .containsEntry("chatgpt-account-id", "acct-" + a)
                .containsEntry("authorization", "Bearer " + Pool.secretOf(a));
        assertThat(upstream.hits(a).get(0).model())
                .as("official requests never rewrite the model")
                .isEqualTo("gpt-5");
    }

    @Test
    void claudeUnifiedRejectedCoolsTheAccountUntilTheUnifiedReset() {
        pool(Platform.CLAUDE, "claude-opus-4-5");
        Instant reset = clock.instant().plus(Duration.ofDays(3)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        upstream.on(
                a,
                answer(
                        429,
                        Map.of(
                                "anthropic-ratelimit-unified-status", "rejected",
                                "anthropic-ratelimit-unified-reset", Long.toString(reset.getEpochSecond()),
                                "anthropic-ratelimit-unified-representative-claim", "seven_day",
                                "retry-after", "259200"),
                        "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
                                + "\"message\":\"This request would exceed your account's rate limit.\"}}"));

        CredentialEvent.QuotaExhaustionRecorded quota =
                servedByBAndCooled(post("/v1/messages", keyId, MESSAGES), reset);

        assertThat(quota.limitWindow()).isEqualTo("7d");
        assertThat(quota.message()).isEqualTo("Claude usage limit reached: 7-day window resets at " + reset);
    }

    @Test
    void geminiResourceExhaustedCoolsTheAccountForTheReportedDelay() {
        pool(Platform.GEMINI, "gemini-2.5-pro");
        Instant reset = clock.instant().plusSeconds(1800).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        // Code Assist's form: ErrorInfo QUOTA_EXHAUSTED with the reset time, and a RetryInfo
        upstream.on(
                a,
                answer(
                        429,
                        Map.of(),
                        "{\"error\":{\"code\":429,\"message\":\"You have exhausted your capacity on this model.\","
                                + "\"status\":\"RESOURCE_EXHAUSTED\",\"details\":[{\"@type\":"
                                + "\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"QUOTA_EXHAUSTED\","
                                + "\"domain\":\"cloudcode-pa.googleapis.com\",\"metadata\":{\"quotaResetDelay\":\"1800s\","
                                + "\"quotaResetTimeStamp\":\"" + reset + "\"}},{\"@type\":"
                                + "\"type.googleapis.com/google.rpc.RetryInfo\",\"retryDelay\":\"1800s\"}]}}"));

        CredentialEvent.QuotaExhaustionRecorded quota = servedByBAndCooled(
                send(request("/v1beta/models/gemini-2.5-pro:generateContent", keyId)
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}"))
                        .build()),
                reset);

        assertThat(quota.message()).startsWith("Gemini usage limit reached:");
        assertThat(upstream.hits(a).get(0).headers())
                .containsEntry("authorization", "Bearer " + Pool.secretOf(a))
                .doesNotContainKey("x-goog-api-key");
    }

    @Test
    void aPlain429WithoutTheSignalStaysAnOrdinaryTransientFailure() {
        pool(Platform.CLAUDE, "claude-opus-4-5");
        upstream.on(
                a,
                answer(
                        429,
                        Map.of("retry-after", "30"),
                        "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}"));

        HttpResponse<String> response = post("/v1/messages", keyId, MESSAGES);

        assertThat(response.statusCode()).isEqualTo(200);
        List<CredentialEvent> events = outcomes(a, list -> !list.isEmpty());
        assertThat(events).singleElement().isInstanceOf(CredentialEvent.TransientFailureRecorded.class);
    }

    @Test
    void anExpiredAuthorizationIsSkippedWithoutAnUpstreamCall() {
        String group = Pool.uid("g");
        upstream.on(b, ok());
        upstream.on(a, ok());
        install(
                List.of(
                        Pool.credential(a)
                                .official(Platform.CODEX)
                                .oauth(new OAuthStatus(
                                        AuthState.EXPIRED, clock.instant().minusSeconds(5), "acct", null))
                                .groups(group)
                                .priority(0)
                                .build(box),
                        Pool.credential(b)
                                .serves("gpt-5")
                                .groups(group)
                                .priority(1)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("gpt-5"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(upstream.count(a)).isZero();
        assertThat(upstream.count(b)).isEqualTo(1);
    }
}
