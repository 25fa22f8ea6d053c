package io.routegateway.core.oauth;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

import io.routegateway.core.model.Platform;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RefreshPlanTests {

    private static final Instant NOW = Instant.parse("2026-09-02T10:00:00Z");
    private static final Duration LEAD = Duration.ofMinutes(5);
    private static final OAuthMaterial HELD = new OAuthMaterial("at-old", "rt-old", NOW, "acct-old");

    @Test
    void dueWithinTheLeadBeforeExpiryNotBefore() {
        assertThat(RefreshPlan.isDue(NOW, NOW.plus(LEAD).plusSeconds(1), LEAD, null))
                .isFalse();
        assertThat(RefreshPlan.isDue(NOW, NOW.plus(LEAD), LEAD, null)).isTrue();
        assertThat(RefreshPlan.isDue(NOW, NOW.minusSeconds(1), LEAD, null)).isTrue();
        assertThat(RefreshPlan.isDue(NOW, null, LEAD, null)).isFalse();
    }

    @Test
    void dueWhenA401AskedForItWhateverTheExpiry() {
        assertThat(RefreshPlan.isDue(NOW, NOW.plusSeconds(86_400), LEAD, NOW)).isTrue();
        assertThat(RefreshPlan.isDue(NOW, null, LEAD, NOW.minusSeconds(1))).isTrue();
        assertThat(RefreshPlan.isDue(NOW, NOW.plusSeconds(86_400), LEAD, NOW.plusSeconds(1)))
                .isFalse();
    }

    @Test
    void expiredOnlyAtOrAfterTheExpiry() {
        assertThat(RefreshPlan.isExpired(NOW, NOW)).isTrue();
        assertThat(RefreshPlan.isExpired(NOW, NOW.minusSeconds(1))).isTrue();
        assertThat(RefreshPlan.isExpired(NOW, NOW.plusSeconds(1))).isFalse();
        assertThat(RefreshPlan.isExpired(NOW, null)).isFalse();
    }

    @Test
    void onlyA401AboutTheHeldTokenAsksForARefresh() {
        Instant issued = NOW.minusSeconds(60);
        assertThat(RefreshPlan.asksForRefresh(401, issued, NOW)).isTrue();
        assertThat(RefreshPlan.asksForRefresh(401, NOW, NOW)).isFalse();
        assertThat(RefreshPlan.asksForRefresh(401, NOW.plusSeconds(1), NOW)).isFalse();
        assertThat(RefreshPlan.asksForRefresh(403, issued, NOW)).isFalse();
        assertThat(RefreshPlan.asksForRefresh(null, issued, NOW)).isFalse();
        assertThat(RefreshPlan.asksForRefresh(401, null, NOW)).isFalse();
    }

    @Test
    void theBackoffDoublesPerFailureUpToItsCap() {
        Duration backoff = Duration.ofSeconds(10);
        Duration cap = Duration.ofMinutes(10);
        assertThat(RefreshPlan.nextAttempt(NOW, 1, backoff, cap)).isEqualTo(NOW.plusSeconds(10));
        assertThat(RefreshPlan.nextAttempt(NOW, 2, backoff, cap)).isEqualTo(NOW.plusSeconds(20));
        assertThat(RefreshPlan.nextAttempt(NOW, 4, backoff, cap)).isEqualTo(NOW.plusSeconds(80));
        assertThat(RefreshPlan.nextAttempt(NOW, 7, backoff, cap)).isEqualTo(NOW.plus(cap));
        assertThat(RefreshPlan.nextAttempt(NOW, Integer.MAX_VALUE, backoff, cap))
                .isEqualTo(NOW.plus(cap));
        assertThat(RefreshPlan.nextAttempt(NOW, 0, backoff, cap)).isEqualTo(NOW.plusSeconds(10));
    }

    @Test
    void codexTokensCarryTheAccountIdOfTheIdTokenAndRotate() {
        String idToken = jwt("{\"https://api.openai.com/auth\":{\"chatgpt_account_id\":\"acct-9\"}}");
        String body = "{\"access_token\":\"at-new\",\"refresh_token\":\"rt-new\",\"id_token\":\"" + idToken
                + "\",\"expires_in\":3600}";

        RefreshPlan.Result result = RefreshPlan.classify(Platform.CODEX, HELD, 200, body, NOW);

        assertThat(result)
                .isEqualTo(new RefreshPlan.Refreshed(
                        new OAuthMaterial("at-new", "rt-new", NOW.plusSeconds(3600), "acct-9")));
    }

    @Test
    void codexWithoutExpiresInUsesTheAccessTokensExp() {
        String access = jwt("{\"exp\":1788000000}");
        TokenResponse response = TokenResponse.parse(Platform.CODEX, 200, "{\"access_token\":\"" + access + "\"}", NOW);

        assertThat(((TokenResponse.Tokens) response).material().accessExpiresAt())
                .isEqualTo(Instant.ofEpochSecond(1788000000));
    }

    @Test
    void claudeTokensCarryTheAccountUuid() {
        String body =
                "{\"token_type\":\"Bearer\",\"access_token\":\"sk-ant-oat01-x\",\"refresh_token\":\"sk-ant-ort01-y\","
                        + "\"expires_in\":28800,\"account\":{\"uuid\":\"acc-uuid\",\"email_address\":\"a@b.c\"},"
                        + "\"organization\":{\"uuid\":\"org-uuid\"}}";

        TokenResponse response = TokenResponse.parse(Platform.CLAUDE, 200, body, NOW);

        assertThat(response)
                .isEqualTo(new TokenResponse.Tokens(
                        new OAuthMaterial("sk-ant-oat01-x", "sk-ant-ort01-y", NOW.plusSeconds(28800), "acc-uuid")));
    }

    @Test
    void geminiRefreshWithoutARotatedTokenKeepsTheHeldOne() {
        String body = "{\"access_token\":\"ya29.x\",\"expires_in\":3599,\"scope\":\"s\",\"token_type\":\"Bearer\"}";

        RefreshPlan.Result result = RefreshPlan.classify(Platform.GEMINI, HELD, 200, body, NOW);

        assertThat(result)
                .isEqualTo(new RefreshPlan.Refreshed(
                        new OAuthMaterial("ya29.x", "rt-old", NOW.plusSeconds(3599), "acct-old")));
    }

    @Test
    void invalidGrantAndTheOtherMarkersArePermanent() {
        String rotated = "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token has been revoked\"}";
        assertThat(RefreshPlan.classify(Platform.CODEX, HELD, 400, rotated, NOW))
                .isInstanceOf(RefreshPlan.Permanent.class);
        assertThat(RefreshPlan.classify(
                        Platform.CLAUDE, HELD, 401, "{\"error\":{\"message\":\"官方 OAuth 凭证已失效\"}}", NOW))
                .isInstanceOf(RefreshPlan.Permanent.class);
        RefreshPlan.Permanent permanent = (RefreshPlan.Permanent)
                RefreshPlan.classify(Platform.GEMINI, HELD, 400, "{\"error\":\"invalid_grant\"}", NOW);
        assertThat(permanent.kind()).isEqualTo("refresh");
        assertThat(permanent.status()).isEqualTo(400);
        assertThat(permanent.message()).contains("invalid_grant");
    }

    @Test
    void everyOtherFailureIsTheTransientRefreshLabel() {
        RefreshPlan.Result server = RefreshPlan.classify(Platform.CODEX, HELD, 503, "upstream down", NOW);
        RefreshPlan.Result transport = RefreshPlan.classify(Platform.CODEX, HELD, null, "connection refused", NOW);
        RefreshPlan.Result other400 =
                RefreshPlan.classify(Platform.CODEX, HELD, 400, "{\"error\":\"invalid_request\"}", NOW);
        RefreshPlan.Result noToken =
                RefreshPlan.classify(Platform.CODEX, HELD, 200, "{\"token_type\":\"Bearer\"}", NOW);

        assertThat(server).isEqualTo(new RefreshPlan.Transient(503, "token endpoint returned 503: upstream down"));
        assertThat(((RefreshPlan.Transient) server).kind()).isEqualTo("refresh");
        assertThat(transport)
                .isEqualTo(new RefreshPlan.Transient(null, "token endpoint unreachable: connection refused"));
        assertThat(other400).isInstanceOf(RefreshPlan.Transient.class);
        assertThat(noToken).isInstanceOf(RefreshPlan.Transient.class);
    }

    @Test
    void aMarkerInATransportErrorIsNotAnAnswerOfTheEndpoint() {
        assertThat(RefreshPlan.classify(Platform.CODEX, HELD, null, "invalid_grant", NOW))
                .isInstanceOf(RefreshPlan.Transient.class);
    }

    @Test
    void requestsArePerPlatformAndNeverPrintTheirBody() {
        TokenRequest codex = TokenRequest.refresh(Platform.CODEX, "app_x", null, "openid profile email", "rt-secret");
        TokenRequest gemini = TokenRequest.refresh(Platform.GEMINI, "cid", "csecret", "s", "rt-secret");
        TokenRequest claude =
                TokenRequest.exchangeCode(Platform.CLAUDE, "cid", null, "the-code", "verifier", "https://cb", "st");

        assertThat(codex.contentType()).isEqualTo(TokenRequest.JSON);
        assertThat(codex.body())
                .isEqualTo("{\"grant_type\":\"refresh_token\",\"refresh_token\":\"rt-secret\",\"client_id\":\"app_x\","
                        + "\"scope\":\"openid profile email\"}");
        assertThat(gemini.contentType()).isEqualTo(TokenRequest.FORM);
        assertThat(gemini.body())
                .isEqualTo("grant_type=refresh_token&refresh_token=rt-secret&client_id=cid&client_secret=csecret");
        assertThat(claude.body()).contains("\"code_verifier\":\"verifier\"").contains("\"state\":\"st\"");
        assertThat(codex.toString()).doesNotContain("rt-secret");
        assertThat(claude.toString()).doesNotContain("the-code");
    }

    @Test
    void aFailureNeverKeepsTokensOfASuccess() {
        TokenResponse response = TokenResponse.parse(Platform.CODEX, 200, "{\"refresh_token\":\"rt-leak\"}", NOW);
        assertThat(response.toString()).doesNotContain("rt-leak");
        TokenResponse ok = TokenResponse.parse(
                Platform.CODEX, 200, "{\"access_token\":\"at-leak\",\"refresh_token\":\"rt-leak\"}", NOW);
        assertThat(ok.toString()).doesNotContain("at-leak").doesNotContain("rt-leak");
    }

    private static String jwt(String claims) {
        Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
        return encoder.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + encoder.encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".sig";
    }
}
