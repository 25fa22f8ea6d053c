package io.routegateway.demo;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The mock OAuth server and the official paths of the demo upstream, over HTTP, on a clock the test moves. */
class DemoOAuthTests {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
    static final MovableClock CLOCK = new MovableClock();
    static Vertx vertx;
    static DemoUpstream upstream;
    static int port;
    final HttpClient client = HttpClient.newHttpClient();

    static final class MovableClock extends Clock {
        final AtomicReference<Instant> now = new AtomicReference<>(START);

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration by) {
            now.updateAndGet(at -> at.plus(by));
        }
    }

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        upstream = new DemoUpstream(vertx, CLOCK);
        port = upstream.start(0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void defaults() {
        upstream.oauth().resetSwitches();
    }

    HttpResponse<String> send(String method, String path, Map<String, String> headers, String body) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(builder::header);
        return client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> refreshJson(String refreshToken) throws Exception {
        return send(
                "POST",
                "/oauth/token",
                Map.of("content-type", "application/json"),
                "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + refreshToken + "\",\"client_id\":\"c\"}");
    }

    HttpResponse<String> form(String body) throws Exception {
        return send("POST", "/oauth/token", Map.of("content-type", "application/x-www-form-urlencoded"), body);
    }

    HttpResponse<String> responses(String accessToken) throws Exception {
        return send(
                "POST",
                "/v1/responses",
                Map.of("authorization", "Bearer " + accessToken, "content-type", "application/json"),
                "{\"model\":\"gpt-5.1-codex\",\"input\":\"hi\"}");
    }

    static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    @Test
    void aRefreshRotatesTheRefreshTokenAndAReusedOneIsRevokedAndCounted() throws Exception {
        OAuthServer.Grant grant = upstream.oauth().issue("acct-rotate");
        long reuseBefore = upstream.oauth().refreshReuse();

        HttpResponse<String> first = refreshJson(grant.refreshToken());
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        JsonNode body = json(first);
        assertThat(body.path("refresh_token").asText())
                .startsWith(OAuthServer.REFRESH_PREFIX)
                .isNotEqualTo(grant.refreshToken());
        assertThat(body.path("access_token").asText())
                .startsWith(OAuthServer.ACCESS_PREFIX)
                .isNotEqualTo(grant.accessToken());
        assertThat(body.path("expires_in").asLong()).isEqualTo(3600);
        assertThat(body.path("account_id").asText()).isEqualTo("acct-rotate");
        assertThat(body.path("account").path("uuid").asText()).isEqualTo("acct-rotate");
        String claims = new String(
                java.util.Base64.getUrlDecoder()
                        .decode(body.path("id_token").asText().split("\\.")[1]),
                StandardCharsets.UTF_8);
        assertThat(JSON.readTree(claims)
                        .path("https://api.openai.com/auth")
                        .path("chatgpt_account_id")
                        .asText())
                .isEqualTo("acct-rotate");

        HttpResponse<String> reused = refreshJson(grant.refreshToken());
        assertThat(reused.statusCode()).isEqualTo(400);
        assertThat(json(reused).path("error").asText()).isEqualTo("invalid_grant");
        assertThat(json(reused).path("error_description").asText()).isEqualTo("refresh token has been revoked");
        assertThat(upstream.oauth().refreshReuse()).isEqualTo(reuseBefore + 1);

        // the rotated-in token still works (a reuse does not revoke the family in this mock)
        HttpResponse<String> next = form("grant_type=refresh_token&refresh_token="
                + URLEncoder.encode(body.path("refresh_token").asText(), StandardCharsets.UTF_8));
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        assertThat(upstream.oauth().refreshCalls("acct-rotate")).isEqualTo(2);
    }

    @Test
    void theOfficialPathsAcceptOnlyAKnownUnexpiredAccessToken() throws Exception {
        upstream.oauth().setAccessTtl(Duration.ofSeconds(60));
        OAuthServer.Grant grant = upstream.oauth().issue("acct-expiry");
        long rejectedBefore = upstream.oauth().rejectedAccess();

        HttpResponse<String> ok = responses(grant.accessToken());
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(ok.body()).contains("demo account acct-expiry");
        assertThat(upstream.requestCount("acct-expiry", "gpt-5.1-codex")).isEqualTo(1);

        assertThat(responses(OAuthServer.ACCESS_PREFIX + "never-issued").statusCode())
                .isEqualTo(401);

        CLOCK.advance(Duration.ofSeconds(60));
        assertThat(responses(grant.accessToken()).statusCode()).as("expired").isEqualTo(401);
        assertThat(upstream.oauth().rejectedAccess()).isEqualTo(rejectedBefore + 2);

        JsonNode refreshed = json(refreshJson(grant.refreshToken()));
        assertThat(refreshed.path("expires_in").asLong()).isEqualTo(60);
        assertThat(responses(refreshed.path("access_token").asText()).statusCode())
                .isEqualTo(200);
        assertThat(upstream.requestCount("acct-expiry", "gpt-5.1-codex")).isEqualTo(2);
    }

    @Test
    void anOldAccessTokenLivesUntilItsExpiryUnlessRevokeOldAccessIsOn() throws Exception {
        OAuthServer.Grant grant = upstream.oauth().issue("acct-old");
        JsonNode refreshed = json(refreshJson(grant.refreshToken()));
        assertThat(responses(grant.accessToken()).statusCode()).isEqualTo(200);

        upstream.oauth().setRevokeOldAccess(true);
        JsonNode again = json(refreshJson(refreshed.path("refresh_token").asText()));
        assertThat(responses(refreshed.path("access_token").asText()).statusCode())
                .isEqualTo(401);
        assertThat(responses(again.path("access_token").asText()).statusCode()).isEqualTo(200);
    }

    @Test
    void theInvalidGrantSwitchRefusesEveryRefreshWithThePermanentMarker() throws Exception {
        OAuthServer.Grant grant = upstream.oauth().issue("acct-invalid");
        HttpResponse<String> set = send("PUT", "/_control/oauth", Map.of(), "{\"invalid_grant\":true}");
        assertThat(json(set).path("switches").path("invalid_grant").asBoolean()).isTrue();

        HttpResponse<String> refused = refreshJson(grant.refreshToken());
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body())
                .isEqualTo("{\"error\":\"invalid_grant\",\"error_description\":\"refresh token has been revoked\"}");
        assertThat(upstream.oauth().refreshCalls("acct-invalid")).isZero();

        send("DELETE", "/_control/oauth", Map.of(), null);
        assertThat(refreshJson(grant.refreshToken()).statusCode())
                .as("not rotated by the refusal")
                .isEqualTo(200);
    }

    @Test
    void aPerAccountInvalidGrantLeavesOtherAccountsRefreshing() throws Exception {
        OAuthServer.Grant refused = upstream.oauth().issue("acct-refused");
        OAuthServer.Grant other = upstream.oauth().issue("acct-other");
        send("PUT", "/_control/oauth", Map.of(), "{\"invalid_grant_account\":\"acct-refused\"}");

        HttpResponse<String> answer = refreshJson(refused.refreshToken());
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(json(answer).path("error_description").asText()).isEqualTo("refresh token has been revoked");
        assertThat(upstream.oauth().invalidGrantAnswers("acct-refused")).isEqualTo(1);
        assertThat(refreshJson(other.refreshToken()).statusCode()).isEqualTo(200);
        assertThat(upstream.oauth().invalidGrantAnswers("acct-other")).isZero();

        upstream.oauth().setInvalidGrant("acct-refused", false);
        assertThat(refreshJson(refused.refreshToken()).statusCode()).isEqualTo(200);
    }

    @Test
    void anAccessTokenIsAnUnsignedJwtCarryingItsExpiryAndAccount() throws Exception {
        OAuthServer.Grant grant = upstream.oauth().issue("acct-jwt", Duration.ofSeconds(120));
        String[] parts = grant.accessToken().split("\\.", -1);
        assertThat(parts).hasSize(3);
        assertThat(parts[2]).isEmpty();
        JsonNode header = JSON.readTree(java.util.Base64.getUrlDecoder().decode(parts[0]));
        assertThat(header.path("alg").asText()).isEqualTo("none");
        JsonNode claims = JSON.readTree(java.util.Base64.getUrlDecoder().decode(parts[1]));
        assertThat(claims.path("exp").asLong()).isEqualTo(grant.expiresAt().getEpochSecond());
        assertThat(claims.path("sub").asText()).isEqualTo("acct-jwt");
        assertThat(claims.path("https://api.openai.com/auth")
                        .path("chatgpt_account_id")
                        .asText())
                .isEqualTo("acct-jwt");
        assertThat(upstream.oauth().issue("acct-jwt").accessToken()).isNotEqualTo(grant.accessToken());
    }

    @Test
    void aFailStatusAnswersEveryTokenCallWithATemporaryError() throws Exception {
        OAuthServer.Grant grant = upstream.oauth().issue("acct-503");
        send("PUT", "/_control/oauth", Map.of(), "{\"fail_status\":503}");
        HttpResponse<String> failed = refreshJson(grant.refreshToken());
        assertThat(failed.statusCode()).isEqualTo(503);
        assertThat(json(failed).path("error").asText()).isEqualTo("temporarily_unavailable");
        upstream.oauth().setFailStatus(0);
        assertThat(refreshJson(grant.refreshToken()).statusCode()).isEqualTo(200);
    }

    @Test
    void theAuthorizationCodeFlowAutoConsentsAndChecksThePkceVerifier() throws Exception {
        String verifier = "a-verifier-of-at-least-forty-three-characters-0123456789";
        String challenge = OAuthServer.s256(verifier);
        String redirect = "http://127.0.0.1:1/callback";
        HttpResponse<String> authorize = send(
                "GET",
                "/oauth/authorize?response_type=code&client_id=c&login_hint=acct-pkce&state=st-1"
                        + "&code_challenge_method=S256&code_challenge=" + challenge
                        + "&redirect_uri=" + URLEncoder.encode(redirect, StandardCharsets.UTF_8),
                Map.of(),
                null);
        assertThat(authorize.statusCode()).isEqualTo(302);
        String location = authorize.headers().firstValue("location").orElseThrow();
        assertThat(location).startsWith(redirect + "?code=mock-code-").endsWith("&state=st-1");
        String code = location.substring(location.indexOf("code=") + 5, location.indexOf("&state"));

        HttpResponse<String> wrongVerifier = form("grant_type=authorization_code&code=" + code
                + "&code_verifier=wrong&redirect_uri=" + URLEncoder.encode(redirect, StandardCharsets.UTF_8));
        assertThat(wrongVerifier.statusCode()).isEqualTo(400);
        assertThat(json(wrongVerifier).path("error").asText()).isEqualTo("invalid_grant");

        // the failed attempt used the code up (single use): a fresh authorization
        authorize = send(
                "GET",
                "/oauth/authorize?response_type=code&login_hint=acct-pkce&state=st-2&code_challenge_method=S256"
                        + "&code_challenge=" + challenge + "&redirect_uri="
                        + URLEncoder.encode(redirect, StandardCharsets.UTF_8),
                Map.of(),
                null);
        location = authorize.headers().firstValue("location").orElseThrow();
        code = location.substring(location.indexOf("code=") + 5, location.indexOf("&state"));
        String exchange = "{\"grant_type\":\"authorization_code\",\"code\":\"" + code + "\",\"code_verifier\":\""
                + verifier + "\",\"redirect_uri\":\"" + redirect + "\"}";
        HttpResponse<String> exchanged =
                send("POST", "/oauth/token", Map.of("content-type", "application/json"), exchange);
        assertThat(exchanged.statusCode()).as(exchanged.body()).isEqualTo(200);
        assertThat(json(exchanged).path("account_id").asText()).isEqualTo("acct-pkce");
        assertThat(responses(json(exchanged).path("access_token").asText()).statusCode())
                .isEqualTo(200);

        HttpResponse<String> replayed =
                send("POST", "/oauth/token", Map.of("content-type", "application/json"), exchange);
        assertThat(replayed.statusCode()).as("a code is single use").isEqualTo(400);
    }

    @Test
    void anAuthorizationRequestWithoutS256PkceIsRefused() throws Exception {
        HttpResponse<String> plain = send(
                "GET",
                "/oauth/authorize?response_type=code&state=s&redirect_uri=http://x/cb&code_challenge=abc",
                Map.of(),
                null);
        assertThat(plain.statusCode()).isEqualTo(400);
        assertThat(json(plain).path("error").asText()).isEqualTo("invalid_request");
    }

    @Test
    void controlGrantsAnswerTheMaterialAndEachCliFile() throws Exception {
        HttpResponse<String> created = send(
                "POST", "/_control/oauth/grants", Map.of(), "{\"account_id\":\"acct-cli\",\"access_ttl_seconds\":90}");
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode grant = json(created);
        assertThat(Instant.parse(grant.path("expires_at").asText()))
                .isEqualTo(CLOCK.instant().plusSeconds(90));
        JsonNode codex =
                JSON.readTree(grant.path("credentials_json").path("codex").asText());
        assertThat(codex.path("tokens").path("refresh_token").asText())
                .isEqualTo(grant.path("refresh_token").asText());
        assertThat(codex.path("tokens").path("account_id").asText()).isEqualTo("acct-cli");
        JsonNode claude =
                JSON.readTree(grant.path("credentials_json").path("claude").asText());
        assertThat(claude.path("claudeAiOauth").path("expiresAt").asLong())
                .isEqualTo(CLOCK.instant().plusSeconds(90).toEpochMilli());
        JsonNode gemini =
                JSON.readTree(grant.path("credentials_json").path("gemini").asText());
        assertThat(gemini.path("access_token").asText())
                .isEqualTo(grant.path("access_token").asText());
        assertThat(responses(grant.path("access_token").asText()).statusCode()).isEqualTo(200);
    }

    @Test
    void badControlAndTokenRequestsAnswerACodedFourHundred() throws Exception {
        assertThat(send("PUT", "/_control/oauth", Map.of(), "{\"access_ttl_seconds\":\"soon\"}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(send("PUT", "/_control/oauth", Map.of(), "{\"access_ttl_seconds\":0}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(send("PUT", "/_control/oauth", Map.of(), "[1]").statusCode()).isEqualTo(400);
        HttpResponse<String> malformed =
                send("POST", "/oauth/token", Map.of("content-type", "application/json"), "{\"grant_type\":");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(json(malformed).path("error").asText()).isEqualTo("invalid_request");
        HttpResponse<String> unknownGrant = form("grant_type=password&username=u");
        assertThat(json(unknownGrant).path("error").asText()).isEqualTo("unsupported_grant_type");
        HttpResponse<String> unknownToken = form("grant_type=refresh_token&refresh_token=nope");
        assertThat(unknownToken.statusCode()).isEqualTo(400);
        assertThat(json(unknownToken).path("error").asText()).isEqualTo("invalid_grant");
    }

    @Test
    void aUsageLimitAnswersEachPlatformsSignalWithTheResetTime() throws Exception {
        OAuthServer.Grant grant = upstream.oauth().issue("acct-limit");
        upstream.setBehaviour("acct-limit", Behaviour.usageLimit(1800, "5h"));
        long resetsAt = CLOCK.instant().plusSeconds(1800).getEpochSecond();
        try {
            HttpResponse<String> codex = responses(grant.accessToken());
            assertThat(codex.statusCode()).isEqualTo(429);
            assertThat(codex.headers().firstValue("x-codex-primary-used-percent"))
                    .hasValue("100");
            assertThat(codex.headers().firstValue("x-codex-primary-window-minutes"))
                    .hasValue("300");
            assertThat(codex.headers().firstValue("x-codex-primary-reset-after-seconds"))
                    .hasValue("1800");
            assertThat(codex.headers().firstValue("x-codex-primary-reset-at")).hasValue(Long.toString(resetsAt));
            assertThat(json(codex).path("error").path("type").asText()).isEqualTo("usage_limit_reached");
            assertThat(json(codex).path("error").path("resets_at").asLong()).isEqualTo(resetsAt);
            assertThat(json(codex).path("error").path("resets_in_seconds").asLong())
                    .isEqualTo(1800);

            HttpResponse<String> claude = send(
                    "POST",
                    "/v1/messages",
                    Map.of("authorization", "Bearer " + grant.accessToken()),
                    "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":8,\"messages\":[]}");
            assertThat(claude.statusCode()).isEqualTo(429);
            assertThat(claude.headers().firstValue("anthropic-ratelimit-unified-status"))
                    .hasValue("rejected");
            assertThat(claude.headers().firstValue("anthropic-ratelimit-unified-reset"))
                    .hasValue(Long.toString(resetsAt));
            assertThat(claude.headers().firstValue("anthropic-ratelimit-unified-representative-claim"))
                    .hasValue("five_hour");
            assertThat(json(claude).path("error").path("type").asText()).isEqualTo("rate_limit_error");

            HttpResponse<String> gemini = send(
                    "POST",
                    "/v1beta/models/gemini-2.5-pro:generateContent",
                    Map.of("x-goog-api-key", grant.accessToken()),
                    "{\"contents\":[]}");
            assertThat(gemini.statusCode()).isEqualTo(429);
            JsonNode error = json(gemini).path("error");
            assertThat(error.path("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
            assertThat(error.path("details").get(0).path("reason").asText()).isEqualTo("QUOTA_EXHAUSTED");
            assertThat(Instant.parse(error.path("details")
                            .get(0)
                            .path("metadata")
                            .path("quotaResetTimeStamp")
                            .asText()))
                    .isEqualTo(Instant.ofEpochSecond(resetsAt));
            assertThat(error.path("details").get(1).path("retryDelay").asText()).isEqualTo("1800s");

            send(
                    "PUT",
                    "/_control/accounts/acct-limit",
                    Map.of(),
                    "{\"mode\":\"usage_limit\",\"reset_after_seconds\":86400,\"window\":\"7d\"}");
            HttpResponse<String> weekly = responses(grant.accessToken());
            assertThat(weekly.headers().firstValue("x-codex-secondary-window-minutes"))
                    .hasValue("10080");
            assertThat(weekly.headers().firstValue("x-codex-secondary-reset-after-seconds"))
                    .hasValue("86400");
            assertThat(send(
                                    "PUT",
                                    "/_control/accounts/acct-limit",
                                    Map.of(),
                                    "{\"mode\":\"usage_limit\",\"window\":\"1y\"}")
                            .statusCode())
                    .isEqualTo(400);
        } finally {
            upstream.reset("acct-limit");
        }
    }

    @Test
    void theCountersAreReadableOverTheControlApi() throws Exception {
        OAuthServer.Grant grant = upstream.oauth().issue("acct-count");
        long calls = upstream.oauth().tokenCalls();
        refreshJson(grant.refreshToken());
        JsonNode described = json(send("GET", "/_control/oauth", Map.of(), null));
        assertThat(described.path("counters").path("token_calls").asLong()).isEqualTo(calls + 1);
        assertThat(described
                        .path("counters")
                        .path("refreshes_per_account")
                        .path("acct-count")
                        .asLong())
                .isEqualTo(1);
        assertThat(described.toString()).doesNotContain(grant.refreshToken()).doesNotContain(grant.accessToken());
    }
}
