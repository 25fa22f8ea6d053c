package io.routegateway.state.oauth;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.core.oauth.RefreshPlan;
import io.routegateway.core.oauth.TokenRequest;
import io.routegateway.core.oauth.TokenResponse;
import io.routegateway.state.support.MockTokenEndpoint;
import io.routegateway.state.support.OAuthTestProfile;
import io.routegateway.state.support.OutcomeFixtures;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The token endpoint client against a mock authorization server over real HTTP. */
@QuarkusTest
@TestProfile(OAuthTestProfile.class)
class TokenEndpointTests {

    @Inject
    TokenEndpoint endpoint;

    private static String unique(String prefix) {
        return prefix + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    private static OAuthMaterial held(MockTokenEndpoint.Account account) {
        return new OAuthMaterial(account.accessToken, account.refreshToken, Instant.now(), "acct-before");
    }

    private RefreshPlan.Result refresh(Platform platform, OAuthMaterial held) {
        return OutcomeFixtures.await(() -> endpoint.refresh(platform, held));
    }

    @Test
    void aCodexRefreshSendsJsonAndReturnsTheRotatedTokensWithTheAccountOfTheIdToken() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("codex"));
        OAuthMaterial before = held(account);
        Instant sent = Instant.now();

        RefreshPlan.Result result = refresh(Platform.CODEX, before);

        assertThat(result).isInstanceOf(RefreshPlan.Refreshed.class);
        OAuthMaterial after = ((RefreshPlan.Refreshed) result).material();
        assertThat(after.accessToken()).isEqualTo(account.accessToken).isNotEqualTo(before.accessToken());
        assertThat(after.refreshToken()).isEqualTo(account.refreshToken).isNotEqualTo(before.refreshToken());
        assertThat(after.accountId()).as("the id token's chatgpt_account_id").isEqualTo(account.id);
        assertThat(after.accessExpiresAt()).isCloseTo(sent.plusSeconds(3600), within(Duration.ofSeconds(30)));
        MockTokenEndpoint.Request request = account.requests.get(0);
        assertThat(request.contentType()).isEqualTo(TokenRequest.JSON);
        assertThat(request.fields())
                .containsEntry("grant_type", "refresh_token")
                .containsEntry("refresh_token", before.refreshToken())
                .containsEntry("client_id", OAuthTestProfile.CODEX_CLIENT);
        assertThat(account.refreshCalls).hasValue(1);
    }

    @Test
    void aGeminiRefreshSendsAFormWithTheClientSecretAndKeepsTheUnrotatedRefreshToken() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("gemini"));
        account.keepRefreshToken = true;
        OAuthMaterial before = held(account);

        RefreshPlan.Result result = refresh(Platform.GEMINI, before);

        OAuthMaterial after = ((RefreshPlan.Refreshed) result).material();
        assertThat(after.accessToken()).isEqualTo(account.accessToken).isNotEqualTo(before.accessToken());
        assertThat(after.refreshToken()).isEqualTo(before.refreshToken());
        assertThat(after.accountId())
                .as("Gemini answers name no account: the held one stays")
                .isEqualTo("acct-before");
        MockTokenEndpoint.Request request = account.requests.get(0);
        assertThat(request.contentType()).isEqualTo(TokenRequest.FORM);
        assertThat(request.fields())
                .containsEntry("client_id", OAuthTestProfile.GEMINI_CLIENT)
                .containsEntry("client_secret", OAuthTestProfile.GEMINI_SECRET);
    }

    @Test
    void aServerErrorIsATransientRefreshFailure() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("busy"));
        account.failStatus = 503;

        RefreshPlan.Result result = refresh(Platform.CLAUDE, held(account));

        assertThat(result).isInstanceOf(RefreshPlan.Transient.class);
        RefreshPlan.Transient failure = (RefreshPlan.Transient) result;
        assertThat(failure.status()).isEqualTo(503);
        assertThat(failure.kind()).isEqualTo("refresh");
        assertThat(failure.message())
                .isEqualTo("token endpoint returned 503: temporarily_unavailable (try again later)");
    }

    @Test
    void thePermanentMarkerIsAPermanentFailure() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("void"));
        account.invalidGrant = true;

        RefreshPlan.Result result = refresh(Platform.CODEX, held(account));

        assertThat(result).isInstanceOf(RefreshPlan.Permanent.class);
        assertThat(((RefreshPlan.Permanent) result).status()).isEqualTo(400);
        assertThat(((RefreshPlan.Permanent) result).message()).contains("invalid_grant");
    }

    @Test
    void aRetiredRefreshTokenPresentedAgainIsAReuseAnsweredWithThePermanentMarker() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("reuse"));
        OAuthMaterial before = held(account);
        assertThat(refresh(Platform.CODEX, before)).isInstanceOf(RefreshPlan.Refreshed.class);

        RefreshPlan.Result again = refresh(Platform.CODEX, before);

        assertThat(again).isInstanceOf(RefreshPlan.Permanent.class);
        assertThat(account.reuse).hasValue(1);
    }

    @Test
    void aDroppedConnectionIsATransientFailureWithoutStatus() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("drop"));
        account.drop = true;

        RefreshPlan.Result result = refresh(Platform.CODEX, held(account));

        assertThat(result).isInstanceOf(RefreshPlan.Transient.class);
        assertThat(((RefreshPlan.Transient) result).status()).isNull();
        assertThat(((RefreshPlan.Transient) result).message()).startsWith("token endpoint unreachable: ");
    }

    @Test
    void noAnswerWithinTheHttpTimeoutIsATransientFailure() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("slow"));
        account.delayMillis = 6_000;

        RefreshPlan.Result result = refresh(Platform.CODEX, held(account));

        assertThat(result).isInstanceOf(RefreshPlan.Transient.class);
        assertThat(((RefreshPlan.Transient) result).status()).isNull();
        assertThat(((RefreshPlan.Transient) result).message()).contains("TimeoutException");
    }

    @Test
    void aPlatformWithoutATokenEndpointFailsTransientlyAndSaysWhatToConfigure() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("grok"));

        RefreshPlan.Result result = refresh(Platform.GROK, held(account));

        assertThat(result).isInstanceOf(RefreshPlan.Transient.class);
        assertThat(((RefreshPlan.Transient) result).message())
                .isEqualTo("no token endpoint configured for grok (route.oauth.grok.token-url and .client-id)");
        assertThat(account.refreshCalls).hasValue(0);
    }

    @Test
    void anAnswerQuotingThePresentedRefreshTokenIsMasked() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("echo"));
        account.echoToken = true;
        OAuthMaterial before = held(account);

        RefreshPlan.Result result = refresh(Platform.CODEX, before);

        String message = ((RefreshPlan.Transient) result).message();
        assertThat(message).doesNotContain(before.refreshToken()).contains("[redacted]");
    }

    @Test
    void anAuthorizationCodeIsExchangedWithItsVerifierOnce() {
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("code"));
        String verifier = "verifier-" + "v".repeat(43);
        String redirect = "http://localhost:1455/auth/callback";
        String code = MockTokenEndpoint.code(account, verifier, redirect);

        TokenResponse first = OutcomeFixtures.await(
                () -> endpoint.exchangeCode(Platform.CLAUDE, code, verifier, redirect, "state-1"));
        TokenResponse second = OutcomeFixtures.await(
                () -> endpoint.exchangeCode(Platform.CLAUDE, code, verifier, redirect, "state-1"));

        assertThat(first).isInstanceOf(TokenResponse.Tokens.class);
        OAuthMaterial material = ((TokenResponse.Tokens) first).material();
        assertThat(material.accessToken()).isEqualTo(account.accessToken);
        assertThat(material.refreshToken()).isEqualTo(account.refreshToken);
        assertThat(material.accountId()).as("Claude's account.uuid").isEqualTo(account.id);
        assertThat(account.requests.get(0).fields())
                .containsEntry("grant_type", "authorization_code")
                .containsEntry("code_verifier", verifier)
                .containsEntry("redirect_uri", redirect)
                .containsEntry("state", "state-1")
                .containsEntry("client_id", OAuthTestProfile.CLAUDE_CLIENT);
        assertThat(second).isInstanceOf(TokenResponse.Failure.class);
        assertThat(((TokenResponse.Failure) second).error()).isEqualTo("invalid_grant");
        assertThat(second.toString()).doesNotContain(code).doesNotContain(verifier);
    }

    @Test
    void aCodeExchangeWithoutATokenEndpointIsAFailureWithoutStatus() {
        TokenResponse response = OutcomeFixtures.await(
                () -> endpoint.exchangeCode(Platform.GROK, "some-code", "some-verifier", "http://localhost/cb", "s"));

        assertThat(response).isInstanceOf(TokenResponse.Failure.class);
        assertThat(((TokenResponse.Failure) response).status()).isNull();
        assertThat(((TokenResponse.Failure) response).description())
                .startsWith("no token endpoint configured for grok");
    }
}
