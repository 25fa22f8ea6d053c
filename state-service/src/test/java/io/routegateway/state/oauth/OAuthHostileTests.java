package io.routegateway.state.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.support.CapturedLog;
import io.routegateway.state.support.OAuthFixtures.Tokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OAuthFixtures.awaitingAuthorization;
import static io.routegateway.state.support.OAuthFixtures.claudeFile;
import static io.routegateway.state.support.OAuthFixtures.pending;
import static io.routegateway.state.support.OAuthFixtures.tokenFields;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input to the OAuth admin endpoints: each refusal is a 400 (404 for an unknown id) with its
 * code, never a 5xx; a refused write changes nothing stored (the tokens, the version, the pending
 * authorizations); no answer and no log line carries a token that was sent.
 */
@QuarkusTest
class OAuthHostileTests {

    private static final String NUL = "\u0000";

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

    /** One refused call: its body (a JSON value, or raw text when a String) and the code it must answer. */
    private record Refusal(String what, Object body, String code) {}

    @Test
    void aRefusedPasteLeavesTheStoredTokensAndVersionAsTheyWereAndEchoesNoToken() {
        String id = awaitingAuthorization("claude");
        Tokens held = Tokens.fresh();
        Instant expiry = Instant.now().plus(Duration.ofHours(4));
        admin().body(Map.of("credentials_json", claudeFile(held, expiry)))
                .put("/admin/v1/credentials/" + id + "/oauth")
                .then()
                .statusCode(200);
        CredentialEntity before = credential(id);
        String refreshBefore = oauthRow(id).sealedRefreshToken;

        Tokens sent = Tokens.fresh();
        String file = claudeFile(sent, expiry);
        List<Refusal> refusals = new ArrayList<>();
        refusals.add(new Refusal(
                "NUL in the pasted text",
                Map.of(
                        "credentials_json",
                        file.replace("{\"claudeAiOauth\"", "{\"a\":\"" + NUL + "\",\"claudeAiOauth\"")),
                "validation.oauth_credentials_json"));
        refusals.add(new Refusal(
                "NUL in a token",
                tokenFields(new Tokens(sent.access() + NUL, sent.refresh()), expiry, null),
                "validation.oauth_access_token"));
        refusals.add(new Refusal(
                "unpaired surrogate in a token",
                tokenFields(new Tokens(sent.access(), sent.refresh() + "\uD800"), expiry, null),
                "validation.oauth_refresh_token"));
        refusals.add(new Refusal(
                "over 65,536 characters",
                Map.of(
                        "credentials_json",
                        file.replace("\"scopes\"", "\"padding\":\"" + "x".repeat(65_536) + "\",\"scopes\"")),
                "validation.oauth_credentials_size"));
        refusals.add(new Refusal(
                "a token over 8,192 characters",
                tokenFields(new Tokens("a".repeat(8193), sent.refresh()), expiry, null),
                "validation.oauth_access_token"));
        refusals.add(new Refusal(
                "credentials_json a number", Map.of("credentials_json", 5), "validation.oauth_credentials_json"));
        refusals.add(new Refusal(
                "credentials_json an array",
                Map.of("credentials_json", List.of(file)),
                "validation.oauth_credentials_json"));
        refusals.add(new Refusal(
                "credentials_json not JSON",
                Map.of("credentials_json", "{\"claudeAiOauth\": " + sent.access()),
                "validation.oauth_credentials_json"));
        refusals.add(new Refusal(
                "credentials_json with trailing text",
                Map.of("credentials_json", file + " " + sent.access()),
                "validation.oauth_credentials_json"));
        refusals.add(new Refusal(
                "access_token a number",
                Map.of("access_token", 5, "refresh_token", sent.refresh()),
                "validation.oauth_access_token"));
        refusals.add(new Refusal(
                "expires_at a boolean",
                Map.of("access_token", sent.access(), "refresh_token", sent.refresh(), "expires_at", true),
                "validation.oauth_expires_at"));
        refusals.add(new Refusal(
                "no refresh token", Map.of("access_token", sent.access()), "validation.oauth_refresh_token"));
        refusals.add(new Refusal(
                "the refresh token repeats the access token",
                Map.of("access_token", sent.access(), "refresh_token", sent.access()),
                "validation.oauth_refresh_token"));
        Map<String, Object> both = new HashMap<>(tokenFields(sent, expiry, null));
        both.put("credentials_json", file);
        refusals.add(new Refusal("both forms", both, "validation.oauth_body"));
        refusals.add(new Refusal("neither form", Map.of(), "validation.oauth_body"));
        refusals.add(
                new Refusal("a field the endpoint does not take", Map.of("name", "x"), "validation.unknown_field"));
        refusals.add(new Refusal("an array body", List.of(file), "validation.oauth_body"));
        refusals.add(new Refusal(
                "not JSON at all", "{\"credentials_json\": \"" + sent.access(), "validation.malformed_json"));
        refusals.add(new Refusal(
                "another platform's file",
                Map.of(
                        "credentials_json",
                        "{\"tokens\":{\"access_token\":\"" + sent.access() + "\",\"refresh_token\":\"" + sent.refresh()
                                + "\"}}"),
                "validation.oauth_platform_shape"));
        refusals.add(new Refusal(
                "an expiry decades ahead",
                tokenFields(sent, Instant.now().plus(Duration.ofDays(4000)), null),
                "validation.oauth_expires_at"));
        refusals.add(new Refusal(
                "an account id repeating a token",
                tokenFields(sent, expiry, sent.access()),
                "validation.oauth_account_id"));

        List<String> answers = new ArrayList<>();
        for (Refusal refusal : refusals) {
            ValidatableResponse response = send(admin(), refusal.body())
                    .put("/admin/v1/credentials/" + id + "/oauth")
                    .then();
            answers.add(error(response, 400, refusal.code()).extract().asString());
        }
        answers.add(error(
                        send(admin(), tokenFields(sent, expiry, null))
                                .put("/admin/v1/credentials/no-such-credential/oauth")
                                .then(),
                        404,
                        "not_found")
                .extract()
                .asString());
        String api = createCredential(unique("api"), "sk-api-hostile", Map.of());
        answers.add(error(
                        send(admin(), Map.of("credentials_json", file))
                                .put("/admin/v1/credentials/" + api + "/oauth")
                                .then(),
                        400,
                        "validation.oauth_not_official")
                .extract()
                .asString());
        answers.add(error(
                        send(admin().urlEncodingEnabled(false), tokenFields(sent, expiry, null))
                                .put("/admin/v1/credentials/bad%00id/oauth")
                                .then(),
                        400,
                        "validation.id")
                .extract()
                .asString());

        assertThat(answers)
                .allSatisfy(answer -> assertThat(answer)
                        .doesNotContain(sent.access())
                        .doesNotContain(sent.refresh())
                        .doesNotContain(held.access())
                        .doesNotContain(held.refresh()));
        CredentialEntity after = credential(id);
        assertThat(after.stateVersion).isEqualTo(before.stateVersion);
        assertThat(after.encryptedSecret).isEqualTo(before.encryptedSecret);
        assertThat(after.oauthAccessExpiresAt).isEqualTo(before.oauthAccessExpiresAt);
        assertThat(oauthRow(id).sealedRefreshToken).isEqualTo(refreshBefore);
        assertThat(secretBox.open(after.secretBinding(), after.encryptedSecret)).isEqualTo(held.access());
        assertThat(credential(api).oauthState).isNull();
        assertThat(log.lines())
                .allSatisfy(line -> assertThat(line)
                        .doesNotContain(sent.access())
                        .doesNotContain(sent.refresh())
                        .doesNotContain(held.access())
                        .doesNotContain(held.refresh()));
    }

    @Test
    void aRefusedStartStoresNoPendingAuthorization() {
        String codex = awaitingAuthorization("codex");
        List<Refusal> refusals = List.of(
                new Refusal("redirect_uri a number", Map.of("redirect_uri", 5), "validation.oauth_redirect_uri"),
                new Refusal(
                        "a javascript: redirect",
                        Map.of("redirect_uri", "javascript:alert(1)"),
                        "validation.oauth_redirect_uri"),
                new Refusal(
                        "NUL in the redirect",
                        Map.of("redirect_uri", "https://console.example.test/" + NUL),
                        "validation.oauth_redirect_uri"),
                new Refusal(
                        "a redirect with a fragment",
                        Map.of("redirect_uri", "https://console.example.test/cb#x"),
                        "validation.oauth_redirect_uri"),
                new Refusal(
                        "a redirect with user info",
                        Map.of("redirect_uri", "https://user:pw@console.example.test/cb"),
                        "validation.oauth_redirect_uri"),
                new Refusal(
                        "a redirect over 2,048 characters",
                        Map.of("redirect_uri", "https://console.example.test/" + "a".repeat(70_000)),
                        "validation.oauth_redirect_uri"),
                new Refusal("an array body", List.of("https://console.example.test/cb"), "validation.oauth_body"),
                new Refusal("not JSON", "{\"redirect_uri\": ", "validation.malformed_json"));
        for (Refusal refusal : refusals) {
            error(
                    send(admin(), refusal.body())
                            .post("/admin/v1/credentials/" + codex + "/oauth/authorize")
                            .then(),
                    400,
                    refusal.code());
        }
        // no flow without a configured authorize URL and client (grok has none; gemini's client is the deployment's)
        for (String platform : List.of("grok", "gemini")) {
            String id = awaitingAuthorization(platform);
            error(
                    admin().body(Map.of())
                            .post("/admin/v1/credentials/" + id + "/oauth/authorize")
                            .then(),
                    400,
                    "validation.oauth_not_configured");
            assertThat(pending(id)).isEmpty();
        }
        String api = createCredential(unique("api"), "sk-api-start", Map.of());
        error(
                admin().body(Map.of())
                        .post("/admin/v1/credentials/" + api + "/oauth/authorize")
                        .then(),
                400,
                "validation.oauth_not_official");
        error(
                admin().body(Map.of())
                        .post("/admin/v1/credentials/no-such-credential/oauth/authorize")
                        .then(),
                404,
                "not_found");
        assertThat(pending(codex)).isEmpty();
        assertThat(pending(api)).isEmpty();
    }

    private static io.restassured.specification.RequestSpecification send(
            io.restassured.specification.RequestSpecification request, Object body) {
        return body instanceof String raw ? request.body(raw) : request.body(body);
    }

    private static CredentialOAuthEntity oauthRow(String id) {
        return inSession(() -> Panache.getSession().flatMap(session -> session.find(CredentialOAuthEntity.class, id)));
    }
}
