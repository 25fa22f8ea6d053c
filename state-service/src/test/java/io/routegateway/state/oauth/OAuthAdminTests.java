package io.routegateway.state.oauth;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.Pkce;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.repository.PendingAuthorizationEntity;
import io.routegateway.state.support.OAuthFixtures.Tokens;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OAuthFixtures.awaitingAuthorization;
import static io.routegateway.state.support.OAuthFixtures.claudeFile;
import static io.routegateway.state.support.OAuthFixtures.latestSnapshot;
import static io.routegateway.state.support.OAuthFixtures.official;
import static io.routegateway.state.support.OAuthFixtures.pending;
import static io.routegateway.state.support.OAuthFixtures.tokenFields;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static io.routegateway.state.support.OutcomeFixtures.inTransaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * Onboarding an official account through the admin API: pasting the CLI credentials file or the
 * token fields, re-authorizing in place, the auth view, and the start of the authorization-code flow.
 */
@QuarkusTest
class OAuthAdminTests {

    @Inject
    SecretBox secretBox;

    @Inject
    CredentialEventService events;

    @Test
    void pastingTheClaudeFileAuthorizesTheAccountSealsBothTokensAndPublishesOnlyItsStatus() {
        String id = awaitingAuthorization("claude");
        Tokens tokens = Tokens.fresh();
        Instant expiry = Instant.now().plus(Duration.ofHours(8)).truncatedTo(ChronoUnit.MILLIS);

        String answer = admin().body(Map.of("credentials_json", claudeFile(tokens, expiry)))
                .put("/admin/v1/credentials/" + id + "/oauth")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"))
                .body("access_expires_at", equalTo(expiry.toString()))
                .body("account_id", nullValue())
                .body("last_refresh_error", nullValue())
                .extract()
                .asString();
        assertThat(answer).doesNotContain(tokens.access()).doesNotContain(tokens.refresh());
        assertThat(JsonPath.from(answer).getString("refreshed_at")).isNotNull();

        CredentialEntity row = credential(id);
        assertThat(row.stateVersion).isEqualTo(2);
        assertThat(secretBox.open(row.secretBinding(), row.encryptedSecret)).isEqualTo(tokens.access());
        CredentialOAuthEntity oauth = oauthRow(id);
        assertThat(secretBox.open(CredentialOAuthEntity.refreshTokenBinding(id, "claude"), oauth.sealedRefreshToken))
                .isEqualTo(tokens.refresh());
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("has_secret", equalTo(true))
                .body("oauth.state", equalTo("authorized"))
                .body("oauth.access_expires_at", equalTo(expiry.toString()));
        admin().get("/admin/v1/credentials/" + id + "/oauth")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"))
                .body("access_expires_at", equalTo(expiry.toString()));

        CredentialSnapshot published = org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> latestSnapshot(id), snapshot -> snapshot != null && snapshot.version() == 2);
        assertThat(published.oauth().state()).isEqualTo(AuthState.AUTHORIZED);
        assertThat(published.oauth().accessExpiresAt()).isEqualTo(expiry);
        assertThat(published.encryptedSecret()).isEqualTo(row.encryptedSecret);
        assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, id))
                .allSatisfy(record -> assertThat(String.valueOf(record.value()))
                        .doesNotContain(tokens.access())
                        .doesNotContain(tokens.refresh()));
    }

    @Test
    void theTokenFieldsAndThePastedObjectAreAcceptedToo() {
        String grok = awaitingAuthorization("grok");
        Tokens tokens = Tokens.fresh();
        Instant expiry = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS);
        admin().body(tokenFields(tokens, expiry, "acct-grok-1"))
                .put("/admin/v1/credentials/" + grok + "/oauth")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"))
                .body("access_expires_at", equalTo(expiry.toString()))
                .body("account_id", equalTo("acct-grok-1"));
        CredentialEntity row = credential(grok);
        assertThat(secretBox.open(row.secretBinding(), row.encryptedSecret)).isEqualTo(tokens.access());

        String claude = awaitingAuthorization("claude");
        Map<String, Object> file = io.routegateway.core.json.Json.readObject(claudeFile(tokens, expiry))
                .map(object -> io.routegateway.core.json.Json.MAPPER.convertValue(
                        object, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {}))
                .orElseThrow();
        admin().body(Map.of("credentials_json", file))
                .put("/admin/v1/credentials/" + claude + "/oauth")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"));
    }

    @Test
    void reauthorizingInPlaceReplacesTheTokensAndBringsARevokedAccountBack() {
        String id = awaitingAuthorization("claude");
        Tokens first = Tokens.fresh();
        Instant expiry = Instant.now().plus(Duration.ofHours(1));
        admin().body(Map.of("credentials_json", claudeFile(first, expiry)))
                .put("/admin/v1/credentials/" + id + "/oauth")
                .then()
                .statusCode(200);
        await(() -> events.apply(new CredentialEvent.PermanentFailureRecorded(
                UUID.randomUUID(),
                id,
                Instant.now(),
                null,
                "permanent_failure",
                400,
                "invalid_grant: refresh token has been revoked",
                null)));
        admin().get("/admin/v1/credentials/" + id).then().statusCode(200).body("status", equalTo("revoked"));

        Tokens second = Tokens.fresh();
        admin().body(Map.of("credentials_json", claudeFile(second, expiry.plus(Duration.ofHours(1)))))
                .put("/admin/v1/credentials/" + id + "/oauth")
                .then()
                .statusCode(200)
                .body("state", equalTo("authorized"));

        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("status", equalTo("ok"))
                .body("oauth.state", equalTo("authorized"));
        CredentialEntity row = credential(id);
        assertThat(secretBox.open(row.secretBinding(), row.encryptedSecret)).isEqualTo(second.access());
        assertThat(secretBox.open(
                        CredentialOAuthEntity.refreshTokenBinding(id, "claude"), oauthRow(id).sealedRefreshToken))
                .isEqualTo(second.refresh());
    }

    @Test
    void theAuthViewOfEveryKindOfCredential() {
        admin().get("/admin/v1/credentials/" + awaitingAuthorization("codex") + "/oauth")
                .then()
                .statusCode(200)
                .body("state", equalTo("unauthorized"))
                .body("access_expires_at", nullValue());
        // an official credential holding a static token is not OAuth-managed: every field null
        String staticToken = official("claude", "sk-ant-static-" + UUID.randomUUID());
        String answer = admin().get("/admin/v1/credentials/" + staticToken + "/oauth")
                .then()
                .statusCode(200)
                .body("state", nullValue())
                .body("refreshed_at", nullValue())
                .extract()
                .asString();
        assertThat(JsonPath.from(answer).getMap(""))
                .containsOnlyKeys("state", "access_expires_at", "account_id", "refreshed_at", "last_refresh_error");
        error(
                admin().get("/admin/v1/credentials/" + createCredential(unique("api"), "sk-api-1", Map.of()) + "/oauth")
                        .then(),
                400,
                "validation.oauth_not_official");
        error(admin().get("/admin/v1/credentials/no-such-credential/oauth").then(), 404, "not_found");
    }

    @Test
    void startingTheFlowKeepsTheVerifierSealedAndAnswersTheUrlToOpen() {
        String id = awaitingAuthorization("codex");
        String answer = admin().body(Map.of())
                .post("/admin/v1/credentials/" + id + "/oauth/authorize")
                .then()
                .statusCode(200)
                .body("redirect_uri", equalTo("http://localhost:1455/auth/callback"))
                .extract()
                .asString();
        JsonPath started = JsonPath.from(answer);
        String state = started.getString("state");
        URI url = URI.create(started.getString("authorize_url"));
        assertThat(url.getScheme() + "://" + url.getHost() + url.getPath())
                .isEqualTo("https://auth.openai.com/oauth/authorize");
        Map<String, String> query = query(url);
        assertThat(query)
                .containsEntry("response_type", "code")
                .containsEntry("client_id", "app_EMoamEEZ73f0CkXaXp7hrann")
                .containsEntry("redirect_uri", "http://localhost:1455/auth/callback")
                .containsEntry("code_challenge_method", "S256")
                .containsEntry("state", state);

        List<PendingAuthorizationEntity> rows = pending(id);
        assertThat(rows).hasSize(1);
        PendingAuthorizationEntity row = rows.get(0);
        assertThat(row.state).isEqualTo(state);
        assertThat(row.redirectUri).isEqualTo("http://localhost:1455/auth/callback");
        assertThat(Duration.between(row.createdAt, row.expiresAt)).isEqualTo(OAuthAdminRules.PENDING_TTL);
        assertThat(Instant.parse(started.getString("expires_at"))).isEqualTo(row.expiresAt);
        String verifier =
                secretBox.open(PendingAuthorizationEntity.verifierBinding(id, "codex"), row.sealedCodeVerifier);
        assertThat(verifier).hasSize(43);
        assertThat(query).containsEntry("code_challenge", Pkce.challenge(verifier));
        assertThat(answer).doesNotContain(verifier);
        assertThat(row.sealedCodeVerifier).doesNotContain(verifier);
    }

    @Test
    void aSentRedirectUriIsUsedAndExpiredStartsAreDroppedByTheNextOne() {
        String id = awaitingAuthorization("claude");
        String stale = "stale-state-" + UUID.randomUUID().toString().replace("-", "");
        inTransaction(() -> {
            PendingAuthorizationEntity expired = new PendingAuthorizationEntity();
            expired.state = stale;
            expired.credentialId = id;
            expired.sealedCodeVerifier = secretBox.seal(PendingAuthorizationEntity.verifierBinding(id, "claude"), "v");
            expired.redirectUri = "https://console.example.test/callback";
            expired.createdAt = Instant.now().minus(Duration.ofMinutes(30));
            expired.expiresAt = Instant.now().minus(Duration.ofMinutes(20));
            return expired.persist();
        });

        String answer = admin().body(Map.of("redirect_uri", "https://console.example.test/oauth/done"))
                .post("/admin/v1/credentials/" + id + "/oauth/authorize")
                .then()
                .statusCode(200)
                .body("redirect_uri", equalTo("https://console.example.test/oauth/done"))
                .extract()
                .asString();
        Map<String, String> query = query(URI.create(JsonPath.from(answer).getString("authorize_url")));
        assertThat(query)
                .containsEntry("redirect_uri", "https://console.example.test/oauth/done")
                .containsEntry("code", "true");
        assertThat(pending(id))
                .extracting(row -> row.state)
                .containsExactly(JsonPath.from(answer).getString("state"));
        // the body may be left out altogether
        admin().post("/admin/v1/credentials/" + id + "/oauth/authorize").then().statusCode(200);
        assertThat(pending(id)).hasSize(2);
    }

    @Test
    void aStaticSecretOrAnApiKindEndsTheOAuthMaterialAndAnotherPlatformAsksForANewAuthorization() {
        Instant expiry = Instant.now().plus(Duration.ofHours(1));
        // a static token replaces the OAuth material
        String toStatic = authorizedClaude(Tokens.fresh(), expiry);
        admin().body(Map.of("secret", "sk-ant-static-" + UUID.randomUUID()))
                .patch("/admin/v1/credentials/" + toStatic)
                .then()
                .statusCode(200)
                .body("has_secret", equalTo(true))
                .body("oauth", nullValue());
        assertThat(oauthRow(toStatic)).isNull();
        admin().get("/admin/v1/credentials/" + toStatic + "/oauth")
                .then()
                .statusCode(200)
                .body("state", nullValue());

        // the tokens of one platform are no use on another: the account awaits authorization again
        String moved = authorizedClaude(Tokens.fresh(), expiry);
        admin().body(Map.of())
                .post("/admin/v1/credentials/" + moved + "/oauth/authorize")
                .then()
                .statusCode(200);
        admin().body(Map.of("platform", "codex"))
                .patch("/admin/v1/credentials/" + moved)
                .then()
                .statusCode(200)
                .body("has_secret", equalTo(false))
                .body("oauth.state", equalTo("unauthorized"))
                .body("oauth.access_expires_at", nullValue());
        assertThat(oauthRow(moved)).isNull();
        assertThat(pending(moved)).isEmpty();
        assertThat(credential(moved).encryptedSecret).isEmpty();
        CredentialSnapshot published = org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> latestSnapshot(moved),
                        snapshot -> snapshot != null && snapshot.version() == credential(moved).stateVersion);
        assertThat(published.oauth().state()).isEqualTo(AuthState.UNAUTHORIZED);

        // an api key needs a key of its own: the access token does not become one
        Tokens tokens = Tokens.fresh();
        String toApi = authorizedClaude(tokens, expiry);
        long version = credential(toApi).stateVersion;
        error(
                admin().body(Map.of("kind", "api", "platform", "openai"))
                        .patch("/admin/v1/credentials/" + toApi)
                        .then(),
                400,
                "validation.secret");
        assertThat(credential(toApi).stateVersion).isEqualTo(version);
        assertThat(credential(toApi).oauthState).isEqualTo("authorized");
        admin().body(Map.of("kind", "api", "platform", "openai", "secret", "sk-relay-" + UUID.randomUUID()))
                .patch("/admin/v1/credentials/" + toApi)
                .then()
                .statusCode(200)
                .body("kind", equalTo("api"))
                .body("oauth", nullValue());
        assertThat(oauthRow(toApi)).isNull();

        // purging the credential takes its refresh token with it
        String purged = authorizedClaude(Tokens.fresh(), expiry);
        admin().delete("/admin/v1/credentials/" + purged + "?purge=true").then().statusCode(204);
        assertThat(oauthRow(purged)).isNull();
    }

    private static String authorizedClaude(Tokens tokens, Instant expiry) {
        String id = awaitingAuthorization("claude");
        admin().body(Map.of("credentials_json", claudeFile(tokens, expiry)))
                .put("/admin/v1/credentials/" + id + "/oauth")
                .then()
                .statusCode(200);
        return id;
    }

    private static CredentialOAuthEntity oauthRow(String id) {
        return inSession(() -> Panache.getSession().flatMap(session -> session.find(CredentialOAuthEntity.class, id)));
    }

    private static Map<String, String> query(URI url) {
        Map<String, String> out = new HashMap<>();
        for (String pair : url.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            out.put(
                    URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }
}
