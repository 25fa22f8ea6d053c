package io.routegateway.state.oauth;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthCodes;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.oauth.Pkce;
import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OAuthAdminRulesTests {

    static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");
    static final String CLAUDE_FILE =
            "{\"claudeAiOauth\":{\"accessToken\":\"sk-ant-oat01-a\",\"refreshToken\":\"sk-ant-ort01-r\","
                    + "\"expiresAt\":1780308000000,\"scopes\":[\"user:inference\"]}}";
    static final OAuthAdminRules.FlowSettings FLOW = new OAuthAdminRules.FlowSettings(
            "http://localhost:8089/oauth/authorize",
            "client-1",
            "http://localhost:1455/auth/callback",
            List.of("openid", "offline_access"),
            Map.of(),
            true);

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static String code(Runnable call) {
        try {
            call.run();
        } catch (ValidationException e) {
            return e.code();
        }
        throw new AssertionError("not refused");
    }

    @Test
    void thePastedFileIsReadAsTextOrAsItsObject() {
        OAuthMaterial asText = OAuthAdminRules.material(
                Platform.CLAUDE,
                CredentialKind.OFFICIAL,
                Json.MAPPER.createObjectNode().put("credentials_json", CLAUDE_FILE),
                NOW);
        assertThat(asText.accessToken()).isEqualTo("sk-ant-oat01-a");
        assertThat(asText.refreshToken()).isEqualTo("sk-ant-ort01-r");
        OAuthMaterial asObject = OAuthAdminRules.material(
                Platform.CLAUDE, CredentialKind.OFFICIAL, json("{\"credentials_json\":" + CLAUDE_FILE + "}"), NOW);
        assertThat(asObject).isEqualTo(asText);
    }

    @Test
    void theTokenFieldsAreTheOtherForm() {
        OAuthMaterial material = OAuthAdminRules.material(
                Platform.CODEX,
                CredentialKind.OFFICIAL,
                json("{\"access_token\":\"at-1\",\"refresh_token\":\"rt-1\",\"expires_at\":\"2026-06-02T00:00:00Z\","
                        + "\"account_id\":\"acct-9\"}"),
                NOW);
        assertThat(material)
                .isEqualTo(new OAuthMaterial("at-1", "rt-1", Instant.parse("2026-06-02T00:00:00Z"), "acct-9"));
    }

    static Stream<Arguments> refusedBodies() {
        return Stream.of(
                Arguments.of(
                        "an api credential",
                        CredentialKind.API,
                        "{\"credentials_json\":\"{}\"}",
                        OAuthCodes.NOT_OFFICIAL),
                Arguments.of("not an object", CredentialKind.OFFICIAL, "[1]", OAuthCodes.BODY),
                Arguments.of("empty", CredentialKind.OFFICIAL, "{}", OAuthCodes.BODY),
                Arguments.of("an unknown field only", CredentialKind.OFFICIAL, "{\"secret\":\"x\"}", OAuthCodes.BODY),
                Arguments.of(
                        "both forms",
                        CredentialKind.OFFICIAL,
                        "{\"credentials_json\":\"{}\",\"access_token\":\"a\"}",
                        OAuthCodes.BODY),
                Arguments.of(
                        "credentials_json a number",
                        CredentialKind.OFFICIAL,
                        "{\"credentials_json\":5}",
                        OAuthCodes.CREDENTIALS_JSON),
                Arguments.of(
                        "credentials_json an array",
                        CredentialKind.OFFICIAL,
                        "{\"credentials_json\":[]}",
                        OAuthCodes.CREDENTIALS_JSON),
                Arguments.of(
                        "credentials_json null",
                        CredentialKind.OFFICIAL,
                        "{\"credentials_json\":null}",
                        OAuthCodes.CREDENTIALS_JSON),
                Arguments.of(
                        "credentials_json not JSON",
                        CredentialKind.OFFICIAL,
                        "{\"credentials_json\":\"not json\"}",
                        OAuthCodes.CREDENTIALS_JSON),
                Arguments.of(
                        "a codex file for claude",
                        CredentialKind.OFFICIAL,
                        "{\"credentials_json\":{\"tokens\":{\"access_token\":\"a\",\"refresh_token\":\"r\"}}}",
                        OAuthCodes.PLATFORM_SHAPE),
                Arguments.of(
                        "fields without a refresh token",
                        CredentialKind.OFFICIAL,
                        "{\"access_token\":\"a\"}",
                        OAuthCodes.REFRESH_TOKEN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedBodies")
    void aRefusedBodyNamesItsCode(String why, CredentialKind kind, String body, String expected) {
        assertThat(code(() -> OAuthAdminRules.material(Platform.CLAUDE, kind, json(body), NOW)))
                .isEqualTo(expected);
    }

    @Test
    void startingTheFlowGivesAnS256UrlAndATenMinuteState() {
        byte[] verifierBytes = new byte[Pkce.VERIFIER_BYTES];
        Arrays.fill(verifierBytes, (byte) 7);
        byte[] stateBytes = new byte[Pkce.STATE_BYTES];
        Arrays.fill(stateBytes, (byte) 9);
        OAuthAdminRules.Start start = OAuthAdminRules.start(
                Platform.CODEX, CredentialKind.OFFICIAL, FLOW, null, verifierBytes, stateBytes, NOW);
        assertThat(start.verifier()).isEqualTo(Pkce.verifier(verifierBytes));
        assertThat(start.state()).isEqualTo(Pkce.state(stateBytes));
        assertThat(start.redirectUri()).isEqualTo("http://localhost:1455/auth/callback");
        assertThat(start.expiresAt()).isEqualTo(NOW.plus(OAuthAdminRules.PENDING_TTL));
        assertThat(start.authorizeUrl())
                .startsWith("http://localhost:8089/oauth/authorize?response_type=code&client_id=client-1")
                .contains("code_challenge=" + Pkce.challenge(start.verifier()))
                .contains("code_challenge_method=S256")
                .contains("state=" + start.state())
                .contains("scope=openid%20offline_access")
                .doesNotContain(start.verifier());
        assertThat(start.toString()).doesNotContain(start.verifier());
        OAuthAdminRules.Start sent = OAuthAdminRules.start(
                Platform.CODEX,
                CredentialKind.OFFICIAL,
                FLOW,
                json("{\"redirect_uri\":\"https://console.example.test/cb\"}"),
                verifierBytes,
                stateBytes,
                NOW);
        assertThat(sent.redirectUri()).isEqualTo("https://console.example.test/cb");
        assertThat(sent.authorizeUrl()).contains("redirect_uri=https%3A%2F%2Fconsole.example.test%2Fcb");
    }

    static Stream<Arguments> refusedStarts() {
        OAuthAdminRules.FlowSettings noAuthorize =
                new OAuthAdminRules.FlowSettings(null, "c", "http://l/cb", List.of(), Map.of(), true);
        OAuthAdminRules.FlowSettings noClient =
                new OAuthAdminRules.FlowSettings("http://l/a", " ", "http://l/cb", List.of(), Map.of(), true);
        OAuthAdminRules.FlowSettings noToken =
                new OAuthAdminRules.FlowSettings("http://l/a", "c", "http://l/cb", List.of(), Map.of(), false);
        OAuthAdminRules.FlowSettings noRedirect =
                new OAuthAdminRules.FlowSettings("http://l/a", "c", null, List.of(), Map.of(), true);
        return Stream.of(
                Arguments.of("an api credential", CredentialKind.API, FLOW, null, OAuthCodes.NOT_OFFICIAL),
                Arguments.of("no settings", CredentialKind.OFFICIAL, null, null, OAuthCodes.NOT_CONFIGURED),
                Arguments.of("no authorize url", CredentialKind.OFFICIAL, noAuthorize, null, OAuthCodes.NOT_CONFIGURED),
                Arguments.of("no client id", CredentialKind.OFFICIAL, noClient, null, OAuthCodes.NOT_CONFIGURED),
                Arguments.of("no token url", CredentialKind.OFFICIAL, noToken, null, OAuthCodes.NOT_CONFIGURED),
                Arguments.of(
                        "no redirect anywhere", CredentialKind.OFFICIAL, noRedirect, "{}", OAuthCodes.REDIRECT_URI),
                Arguments.of("a body not an object", CredentialKind.OFFICIAL, FLOW, "\"x\"", OAuthCodes.BODY),
                Arguments.of(
                        "a redirect of the wrong type",
                        CredentialKind.OFFICIAL,
                        FLOW,
                        "{\"redirect_uri\":5}",
                        OAuthCodes.REDIRECT_URI),
                Arguments.of(
                        "a javascript redirect",
                        CredentialKind.OFFICIAL,
                        FLOW,
                        "{\"redirect_uri\":\"javascript:alert(1)\"}",
                        OAuthCodes.REDIRECT_URI),
                Arguments.of(
                        "a redirect with a NUL",
                        CredentialKind.OFFICIAL,
                        FLOW,
                        "{\"redirect_uri\":\"http://l/cb\\u0000\"}",
                        OAuthCodes.REDIRECT_URI));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedStarts")
    void aRefusedStartNamesItsCode(
            String why, CredentialKind kind, OAuthAdminRules.FlowSettings settings, String body, String expected) {
        assertThat(code(() -> OAuthAdminRules.start(
                        Platform.CODEX,
                        kind,
                        settings,
                        body == null ? null : json(body),
                        new byte[Pkce.VERIFIER_BYTES],
                        new byte[Pkce.STATE_BYTES],
                        NOW)))
                .isEqualTo(expected);
    }

    @Test
    void theCallbackIsAUrlOrCodeAndState() {
        assertThat(OAuthAdminRules.callback(
                        json("{\"callback_url\":\"http://l/cb?code=c1&state=abcdefghijklmnop1234\"}")))
                .isEqualTo(new Pkce.Callback("c1", "abcdefghijklmnop1234"));
        assertThat(OAuthAdminRules.callback(json("{\"code\":\"c1\",\"state\":\"abcdefghijklmnop1234\"}")))
                .isEqualTo(new Pkce.Callback("c1", "abcdefghijklmnop1234"));
    }

    static Stream<Arguments> refusedCallbacks() {
        return Stream.of(
                Arguments.of("not an object", "[]", OAuthCodes.BODY),
                Arguments.of("empty", "{}", OAuthCodes.BODY),
                Arguments.of(
                        "both forms",
                        "{\"callback_url\":\"http://l/?code=a&state=abcdefghijklmnop1234\",\"code\":\"a\"}",
                        OAuthCodes.BODY),
                Arguments.of("a url of the wrong type", "{\"callback_url\":1}", OAuthCodes.CALLBACK),
                Arguments.of(
                        "a code of the wrong type",
                        "{\"code\":true,\"state\":\"abcdefghijklmnop1234\"}",
                        OAuthCodes.CALLBACK),
                Arguments.of("a state of the wrong type", "{\"code\":\"c\",\"state\":[1]}", OAuthCodes.STATE),
                Arguments.of("no state", "{\"code\":\"c\"}", OAuthCodes.STATE),
                Arguments.of(
                        "a declined authorization",
                        "{\"callback_url\":\"http://l/?error=access_denied\"}",
                        OAuthCodes.CALLBACK));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedCallbacks")
    void aRefusedCallbackNamesItsCode(String why, String body, String expected) {
        assertThat(code(() -> OAuthAdminRules.callback(json(body)))).isEqualTo(expected);
    }

    @Test
    void aStateIsUsableOnlyForItsCredentialAndBeforeItExpires() {
        OAuthAdminRules.Pending pending = new OAuthAdminRules.Pending("cred-a", NOW.plusSeconds(60));
        OAuthAdminRules.requireUsable(pending, "cred-a", NOW);
        assertThat(code(() -> OAuthAdminRules.requireUsable(null, "cred-a", NOW)))
                .isEqualTo(OAuthCodes.STATE);
        assertThat(code(() -> OAuthAdminRules.requireUsable(pending, "cred-b", NOW)))
                .isEqualTo(OAuthCodes.STATE);
        assertThat(code(() -> OAuthAdminRules.requireUsable(pending, "cred-a", NOW.plusSeconds(60))))
                .isEqualTo(OAuthCodes.STATE);
        assertThatThrownBy(() -> OAuthAdminRules.requireUsable(pending, "cred-a", NOW.plusSeconds(61)))
                .hasMessageContaining("expired");
    }

    @Test
    void theViewShowsTheStatusAndTheMaskedErrorNeverATokenField() {
        OAuthStatus status = new OAuthStatus(AuthState.EXPIRED, NOW.minusSeconds(5), "acct-1", NOW.minusSeconds(3600));
        UnaryOperator<String> redact = text -> text.replace("sk-ant-oat01-a", "sk-a***");
        OAuthAdminView view = OAuthAdminRules.view(status, "token endpoint 500 for sk-ant-oat01-a", redact);
        assertThat(view)
                .isEqualTo(new OAuthAdminView(
                        "expired",
                        NOW.minusSeconds(5),
                        "acct-1",
                        NOW.minusSeconds(3600),
                        "token endpoint 500 for sk-a***"));
        assertThat(Json.write(view)).doesNotContain("token\":").doesNotContain("sk-ant-oat01-a");
        assertThat(OAuthAdminRules.view(null, "x", redact)).isNull();
        assertThat(OAuthAdminRules.view(status, "e".repeat(2000), redact).lastRefreshError())
                .hasSize(OAuthAdminRules.MAX_ERROR_CHARS + 1);
    }
}
