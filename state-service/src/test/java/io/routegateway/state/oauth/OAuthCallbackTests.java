package io.routegateway.state.oauth;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.repository.PendingAuthorizationEntity;
import io.routegateway.state.support.CapturedLog;
import io.routegateway.state.support.MockTokenEndpoint;
import io.routegateway.state.support.OAuthTestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OAuthFixtures.awaitingAuthorization;
import static io.routegateway.state.support.OAuthFixtures.pending;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static io.routegateway.state.support.OutcomeFixtures.inTransaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * Completing the authorization-code flow against a mock token endpoint: the code is exchanged with
 * the verifier kept sealed since the start, the tokens are stored, and a state is good once, for its
 * own credential, before it expires. A refused exchange is 502 and stores nothing.
 */
@QuarkusTest
@TestProfile(OAuthTestProfile.class)
class OAuthCallbackTests {

    @Inject
    SecretBox secretBox;

    final CapturedLog log = new CapturedLog();

    @BeforeEach
    void captureTheLog() {
        log.start();
    }

    @AfterEach
    void stopCapturing() {
        log.stop();
    }

    /** A started flow as the platform sees it. */
    private record Started(String state, String verifier, String redirectUri) {}

    @Test
    void theCallbackUrlCompletesTheFlowOnceAndStoresTheIssuedTokens() {
        String id = awaitingAuthorization("codex");
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("acct"));
        Started started = start(id, "codex");
        String code = MockTokenEndpoint.code(account, started.verifier(), started.redirectUri());
        String callbackUrl = started.redirectUri() + "?code=" + encode(code) + "&state=" + started.state();

        String answer = admin().body(Map.of("callback_url", callbackUrl))
                .post("/admin/v1/credentials/" + id + "/oauth/callback")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"))
                .body("account_id", equalTo(account.id))
                .extract()
                .asString();

        assertThat(answer)
                .doesNotContain(account.accessToken)
                .doesNotContain(account.refreshToken)
                .doesNotContain(started.verifier());
        assertThat(account.codeExchanges.get()).isEqualTo(1);
        assertThat(account.requests.get(0).fields())
                .containsEntry("grant_type", "authorization_code")
                .containsEntry("code", code)
                .containsEntry("code_verifier", started.verifier())
                .containsEntry("redirect_uri", started.redirectUri())
                .containsEntry("client_id", OAuthTestProfile.CODEX_CLIENT);
        CredentialEntity row = credential(id);
        assertThat(secretBox.open(row.secretBinding(), row.encryptedSecret)).isEqualTo(account.accessToken);
        assertThat(secretBox.open(
                        CredentialOAuthEntity.refreshTokenBinding(id, "codex"), oauthRow(id).sealedRefreshToken))
                .isEqualTo(account.refreshToken);
        assertThat(pending(id)).isEmpty();
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("has_secret", equalTo(true))
                .body("oauth.state", equalTo("authorized"));

        // the state was used up: the same callback again is refused and reaches no token endpoint
        long version = credential(id).stateVersion;
        error(
                admin().body(Map.of("callback_url", callbackUrl))
                        .post("/admin/v1/credentials/" + id + "/oauth/callback")
                        .then(),
                400,
                "validation.oauth_state");
        assertThat(account.codeExchanges.get()).isEqualTo(1);
        assertThat(credential(id).stateVersion).isEqualTo(version);
        assertLogHoldsNone(code, started.verifier(), account.accessToken, account.refreshToken);
    }

    @Test
    void theCodeAndStateFieldsCompleteAClaudeFlow() {
        String id = awaitingAuthorization("claude");
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("acct"));
        Started started = start(id, "claude");
        String code = MockTokenEndpoint.code(account, started.verifier(), started.redirectUri());
        // Claude's page shows code#state
        admin().body(Map.of("code", code + "#" + started.state()))
                .post("/admin/v1/credentials/" + id + "/oauth/callback")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"))
                .body("account_id", equalTo(account.id));
        assertThat(account.requests.get(0).fields()).containsEntry("client_id", OAuthTestProfile.CLAUDE_CLIENT);
    }

    @Test
    void aRefusedExchangeIs502WithoutTheCodeOrVerifierAndStoresNothing() {
        String id = awaitingAuthorization("claude");
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("acct"));
        Started started = start(id, "claude");
        // a code issued for another verifier: the token endpoint refuses it
        String code = MockTokenEndpoint.code(account, "another-verifier-" + started.verifier(), started.redirectUri());
        long version = credential(id).stateVersion;

        String answer = error(
                        admin().body(Map.of("code", code, "state", started.state()))
                                .post("/admin/v1/credentials/" + id + "/oauth/callback")
                                .then(),
                        502,
                        "oauth_exchange_failed")
                .extract()
                .asString();

        assertThat(answer).contains("invalid_grant").doesNotContain(code).doesNotContain(started.verifier());
        CredentialEntity row = credential(id);
        assertThat(row.stateVersion).isEqualTo(version);
        assertThat(row.oauthState).isEqualTo("unauthorized");
        assertThat(row.encryptedSecret).isEmpty();
        assertThat(oauthRow(id)).isNull();
        // the state is spent with its code: the flow starts again
        assertThat(pending(id)).isEmpty();
        assertLogHoldsNone(code, started.verifier());
    }

    @Test
    void aStateIsRefusedForAnotherCredentialAfterItExpiredAndWhenMalformed() {
        String mine = awaitingAuthorization("codex");
        String theirs = awaitingAuthorization("codex");
        MockTokenEndpoint.Account account = MockTokenEndpoint.grant(unique("acct"));
        Started their = start(theirs, "codex");
        String code = MockTokenEndpoint.code(account, their.verifier(), their.redirectUri());
        String expired = "expiredstate" + unique("s").replace("-", "");
        inTransaction(() -> {
            PendingAuthorizationEntity row = new PendingAuthorizationEntity();
            row.state = expired;
            row.credentialId = mine;
            row.sealedCodeVerifier = secretBox.seal(PendingAuthorizationEntity.verifierBinding(mine, "codex"), "v");
            row.redirectUri = "http://localhost:1455/auth/callback";
            row.createdAt = Instant.now().minus(Duration.ofMinutes(11));
            row.expiresAt = Instant.now().minus(Duration.ofMinutes(1));
            return row.persist();
        });
        String api = createCredential(unique("api"), "sk-api-callback", Map.of());

        List<Object[]> refusals = new ArrayList<>();
        refusals.add(new Object[] {mine, Map.of("code", code, "state", their.state()), 400, "validation.oauth_state"});
        refusals.add(new Object[] {mine, Map.of("code", code, "state", expired), 400, "validation.oauth_state"});
        refusals.add(new Object[] {mine, Map.of("code", code, "state", "short"), 400, "validation.oauth_state"});
        refusals.add(new Object[] {mine, Map.of("code", code), 400, "validation.oauth_state"});
        refusals.add(new Object[] {mine, Map.of("code", code, "state", 5), 400, "validation.oauth_state"});
        refusals.add(new Object[] {mine, Map.of("code", 5, "state", their.state()), 400, "validation.oauth_callback"});
        refusals.add(new Object[] {
            mine, Map.of("code", code + "\u0000", "state", their.state()), 400, "validation.oauth_callback"
        });
        refusals.add(new Object[] {
            mine,
            Map.of("callback_url", their.redirectUri() + "?error=access_denied&state=" + their.state()),
            400,
            "validation.oauth_callback"
        });
        refusals.add(new Object[] {
            mine,
            Map.of("callback_url", their.redirectUri() + "?code=" + "c".repeat(9000) + "&state=" + their.state()),
            400,
            "validation.oauth_callback"
        });
        refusals.add(new Object[] {mine, Map.of("callback_url", List.of("x")), 400, "validation.oauth_callback"});
        refusals.add(new Object[] {
            mine, Map.of("callback_url", their.redirectUri(), "code", code), 400, "validation.oauth_body"
        });
        refusals.add(new Object[] {mine, Map.of("state", their.state()), 400, "validation.oauth_body"});
        refusals.add(new Object[] {mine, List.of(code), 400, "validation.oauth_body"});
        refusals.add(
                new Object[] {api, Map.of("code", code, "state", their.state()), 400, "validation.oauth_not_official"});
        refusals.add(
                new Object[] {"no-such-credential", Map.of("code", code, "state", their.state()), 404, "not_found"});
        List<String> answers = new ArrayList<>();
        for (Object[] refusal : refusals) {
            answers.add(error(
                            admin().body(refusal[1])
                                    .post("/admin/v1/credentials/" + refusal[0] + "/oauth/callback")
                                    .then(),
                            (Integer) refusal[2],
                            (String) refusal[3])
                    .extract()
                    .asString());
        }

        assertThat(answers).allSatisfy(answer -> assertThat(answer).doesNotContain(code));
        assertThat(account.codeExchanges.get()).isZero();
        assertThat(credential(mine).oauthState).isEqualTo("unauthorized");
        // the other credential's flow is untouched and still completes
        assertThat(pending(theirs)).extracting(row -> row.state).containsExactly(their.state());
        admin().body(Map.of("code", code, "state", their.state()))
                .post("/admin/v1/credentials/" + theirs + "/oauth/callback")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"));
    }

    private Started start(String id, String platform) {
        String state = admin().body(Map.of())
                .post("/admin/v1/credentials/" + id + "/oauth/authorize")
                .then()
                .statusCode(200)
                .extract()
                .path("state");
        PendingAuthorizationEntity row =
                inSession(() -> PendingAuthorizationEntity.<PendingAuthorizationEntity>findById(state));
        String verifier =
                secretBox.open(PendingAuthorizationEntity.verifierBinding(id, platform), row.sealedCodeVerifier);
        return new Started(state, verifier, row.redirectUri);
    }

    private void assertLogHoldsNone(String... secrets) {
        assertThat(log.lines()).allSatisfy(line -> {
            for (String secret : secrets) {
                assertThat(line).doesNotContain(secret);
            }
        });
    }

    private static CredentialOAuthEntity oauthRow(String id) {
        return inSession(() -> Panache.getSession().flatMap(session -> session.find(CredentialOAuthEntity.class, id)));
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
