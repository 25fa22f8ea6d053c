package io.routegateway.core.oauth;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;
import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CredentialFileImportTests {

    static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");
    static final String ACCESS = "sk-ant-oat01-access-AAAA";
    static final String REFRESH = "sk-ant-ort01-refresh-BBBB";

    static String jwt(String claimsJson) {
        Base64.Encoder enc = Base64.getUrlEncoder().withoutPadding();
        return enc.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + enc.encodeToString(claimsJson.getBytes(StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
    }

    static String claudeFile(String inner) {
        return "{\"claudeAiOauth\":{" + inner + ",\"scopes\":[\"user:inference\",\"user:profile\"],"
                + "\"subscriptionType\":\"max\"}}";
    }

    @Test
    void claudeCodesCredentialsFileIsRead() {
        long expiresAt = NOW.plusSeconds(8 * 3600).toEpochMilli();
        OAuthMaterial material = CredentialFileImport.fromCredentialsJson(
                Platform.CLAUDE,
                claudeFile("\"accessToken\":\"" + ACCESS + "\",\"refreshToken\":\"" + REFRESH + "\",\"expiresAt\":"
                        + expiresAt),
                NOW);
        assertThat(material.accessToken()).isEqualTo(ACCESS);
        assertThat(material.refreshToken()).isEqualTo(REFRESH);
        assertThat(material.accessExpiresAt()).isEqualTo(Instant.ofEpochMilli(expiresAt));
        assertThat(material.accountId()).isNull();
    }

    @Test
    void theInnerClaudeObjectAloneIsReadToo() {
        OAuthMaterial material = CredentialFileImport.fromCredentialsJson(
                Platform.CLAUDE,
                "{\"accessToken\":\"" + ACCESS + "\",\"refreshToken\":\"" + REFRESH + "\",\"expiresAt\":1780308000000}",
                NOW);
        assertThat(material.accessExpiresAt()).isEqualTo(Instant.ofEpochMilli(1780308000000L));
    }

    @Test
    void codexAuthJsonTakesTheExpiryFromTheAccessTokensJwt() {
        long exp = NOW.plusSeconds(10 * 86400).getEpochSecond();
        String access = jwt("{\"exp\":" + exp + ",\"sub\":\"user\"}");
        String file = "{\"OPENAI_API_KEY\":null,\"tokens\":{\"id_token\":\"" + jwt("{\"email\":\"a@b.c\"}")
                + "\",\"access_token\":\"" + access + "\",\"refresh_token\":\"rt_codex_1\",\"account_id\":"
                + "\"0f6d3c2a-1111-4222-8333-944445555666\"},\"last_refresh\":\"2026-05-31T09:00:00.123Z\"}";
        OAuthMaterial material = CredentialFileImport.fromCredentialsJson(Platform.CODEX, file, NOW);
        assertThat(material.accessToken()).isEqualTo(access);
        assertThat(material.refreshToken()).isEqualTo("rt_codex_1");
        assertThat(material.accessExpiresAt()).isEqualTo(Instant.ofEpochSecond(exp));
        assertThat(material.accountId()).isEqualTo("0f6d3c2a-1111-4222-8333-944445555666");
    }

    @Test
    void codexAccountIdFallsBackToTheIdTokensChatgptAccountClaim() {
        String id = jwt("{\"https://api.openai.com/auth\":{\"chatgpt_account_id\":\"acct-from-claim\"}}");
        String file = "{\"tokens\":{\"id_token\":\"" + id + "\",\"access_token\":\"opaque-access\","
                + "\"refresh_token\":\"rt_2\"}}";
        OAuthMaterial material = CredentialFileImport.fromCredentialsJson(Platform.CODEX, file, NOW);
        assertThat(material.accountId()).isEqualTo("acct-from-claim");
        // an opaque (non-JWT) access token has no known expiry
        assertThat(material.accessExpiresAt()).isNull();
    }

    @Test
    void geminiOauthCredsIsReadWithAFractionalExpiry() {
        String file = "{\"access_token\":\"ya29.a0AUM-x\",\"expiry_date\":1780308000123.7791,"
                + "\"scope\":\"openid https://www.googleapis.com/auth/cloud-platform\","
                + "\"refresh_token\":\"1//05KZEt-y\",\"token_type\":\"Bearer\",\"id_token\":\"eyJ.x.y\"}";
        OAuthMaterial material = CredentialFileImport.fromCredentialsJson(Platform.GEMINI, file, NOW);
        assertThat(material.accessToken()).isEqualTo("ya29.a0AUM-x");
        assertThat(material.refreshToken()).isEqualTo("1//05KZEt-y");
        assertThat(material.accessExpiresAt()).isEqualTo(Instant.ofEpochMilli(1780308000123L));
    }

    @Test
    void anAccessTokenAlreadyExpiredIsAccepted() {
        OAuthMaterial material = CredentialFileImport.fromCredentialsJson(
                Platform.CLAUDE,
                claudeFile("\"accessToken\":\"" + ACCESS + "\",\"refreshToken\":\"" + REFRESH + "\",\"expiresAt\":"
                        + NOW.minusSeconds(3600).toEpochMilli()),
                NOW);
        assertThat(material.accessExpiresAt()).isBefore(NOW);
    }

    @Test
    void theTokenFieldsAcceptAnIsoInstantOrEpochSecondsOrMilliseconds() {
        ObjectNode iso =
                fields("\"access_token\":\"a1\",\"refresh_token\":\"r1\",\"expires_at\":\"2026-06-01T18:00:00Z\","
                        + "\"account_id\":\"acct-1\"");
        assertThat(CredentialFileImport.fromFields(iso, NOW))
                .isEqualTo(new OAuthMaterial("a1", "r1", Instant.parse("2026-06-01T18:00:00Z"), "acct-1"));
        ObjectNode seconds = fields("\"access_token\":\"a1\",\"refresh_token\":\"r1\",\"expires_at\":1780336800");
        assertThat(CredentialFileImport.fromFields(seconds, NOW).accessExpiresAt())
                .isEqualTo(Instant.ofEpochSecond(1780336800L));
        ObjectNode millis = fields("\"access_token\":\"a1\",\"refresh_token\":\"r1\",\"expires_at\":1780336800000");
        assertThat(CredentialFileImport.fromFields(millis, NOW).accessExpiresAt())
                .isEqualTo(Instant.ofEpochSecond(1780336800L));
        ObjectNode none = fields("\"access_token\":\"a1\",\"refresh_token\":\"r1\"");
        assertThat(CredentialFileImport.fromFields(none, NOW).accessExpiresAt()).isNull();
    }

    @Test
    void theMaterialsTextNeverShowsATokenAndRefusalsNeverRepeatOne() {
        OAuthMaterial material = CredentialFileImport.fromFields(
                fields("\"access_token\":\"" + ACCESS + "\",\"refresh_token\":\"" + REFRESH + "\""), NOW);
        assertThat(material.toString()).doesNotContain(ACCESS).doesNotContain(REFRESH);
        assertThatThrownBy(() -> CredentialFileImport.fromCredentialsJson(
                        Platform.CLAUDE, "{\"claudeAiOauth\":{\"accessToken\":\"" + ACCESS + " \"}", NOW))
                .isInstanceOf(ValidationException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(ACCESS));
    }

    static ObjectNode fields(String inner) {
        return (ObjectNode) Json.readObject("{" + inner + "}").orElseThrow();
    }

    static Stream<Arguments> refusedFiles() {
        String ok = "\"accessToken\":\"" + ACCESS + "\",\"refreshToken\":\"" + REFRESH + "\"";
        String huge =
                "{\"claudeAiOauth\":{\"accessToken\":\"" + "a".repeat(CredentialFileImport.MAX_JSON_CHARS) + "\"}}";
        return Stream.of(
                Arguments.of("blank", Platform.CLAUDE, "  ", OAuthCodes.CREDENTIALS_JSON),
                Arguments.of("not JSON", Platform.CLAUDE, "claudeAiOauth: yes", OAuthCodes.CREDENTIALS_JSON),
                Arguments.of("an array", Platform.CLAUDE, "[{\"accessToken\":\"x\"}]", OAuthCodes.CREDENTIALS_JSON),
                Arguments.of("trailing text", Platform.CLAUDE, claudeFile(ok) + " {}", OAuthCodes.CREDENTIALS_JSON),
                Arguments.of(
                        "a repeated key",
                        Platform.CLAUDE,
                        "{\"claudeAiOauth\":{" + ok + ",\"accessToken\":\"other\"}}",
                        OAuthCodes.CREDENTIALS_JSON),
                Arguments.of("a raw NUL", Platform.CLAUDE, claudeFile(ok) + "\u0000", OAuthCodes.CREDENTIALS_JSON),
                Arguments.of("huge", Platform.CLAUDE, huge, OAuthCodes.CREDENTIALS_SIZE),
                Arguments.of("an unrelated object", Platform.CLAUDE, "{\"hello\":1}", OAuthCodes.PLATFORM_SHAPE),
                Arguments.of(
                        "a codex file for claude",
                        Platform.CLAUDE,
                        "{\"tokens\":{\"access_token\":\"a\",\"refresh_token\":\"r\"}}",
                        OAuthCodes.PLATFORM_SHAPE),
                Arguments.of("a claude file for gemini", Platform.GEMINI, claudeFile(ok), OAuthCodes.PLATFORM_SHAPE),
                Arguments.of(
                        "a gemini file for codex",
                        Platform.CODEX,
                        "{\"access_token\":\"a\",\"refresh_token\":\"r\",\"expiry_date\":1780308000000}",
                        OAuthCodes.PLATFORM_SHAPE),
                Arguments.of("any file for grok", Platform.GROK, claudeFile(ok), OAuthCodes.PLATFORM_SHAPE),
                Arguments.of(
                        "a codex api-key file",
                        Platform.CODEX,
                        "{\"OPENAI_API_KEY\":\"sk-proj-x\",\"tokens\":null}",
                        OAuthCodes.PLATFORM_SHAPE),
                Arguments.of(
                        "codex tokens not an object",
                        Platform.CODEX,
                        "{\"tokens\":\"abc\"}",
                        OAuthCodes.PLATFORM_SHAPE),
                Arguments.of(
                        "claudeAiOauth not an object",
                        Platform.CLAUDE,
                        "{\"claudeAiOauth\":[1]}",
                        OAuthCodes.PLATFORM_SHAPE),
                Arguments.of(
                        "no access token",
                        Platform.CLAUDE,
                        claudeFile("\"refreshToken\":\"" + REFRESH + "\""),
                        OAuthCodes.ACCESS_TOKEN),
                Arguments.of(
                        "an access token of the wrong type",
                        Platform.CLAUDE,
                        claudeFile("\"accessToken\":12345,\"refreshToken\":\"" + REFRESH + "\""),
                        OAuthCodes.ACCESS_TOKEN),
                Arguments.of(
                        "an access token with an escaped NUL",
                        Platform.CLAUDE,
                        claudeFile("\"accessToken\":\"abc\\u0000def\",\"refreshToken\":\"" + REFRESH + "\""),
                        OAuthCodes.ACCESS_TOKEN),
                Arguments.of(
                        "an access token with a line break (header injection)",
                        Platform.CLAUDE,
                        claudeFile("\"accessToken\":\"abc\\r\\nX-Evil: 1\",\"refreshToken\":\"" + REFRESH + "\""),
                        OAuthCodes.ACCESS_TOKEN),
                Arguments.of(
                        "an access token longer than 8192",
                        Platform.CLAUDE,
                        claudeFile("\"accessToken\":\"" + "a".repeat(8193) + "\",\"refreshToken\":\"" + REFRESH + "\""),
                        OAuthCodes.ACCESS_TOKEN),
                Arguments.of(
                        "no refresh token",
                        Platform.CLAUDE,
                        claudeFile("\"accessToken\":\"" + ACCESS + "\",\"expiresAt\":1780308000000"),
                        OAuthCodes.REFRESH_TOKEN),
                Arguments.of(
                        "a blank refresh token",
                        Platform.GEMINI,
                        "{\"access_token\":\"ya29.x\",\"refresh_token\":\"  \",\"expiry_date\":1780308000000}",
                        OAuthCodes.REFRESH_TOKEN),
                Arguments.of(
                        "a refresh token of the wrong type",
                        Platform.CODEX,
                        "{\"tokens\":{\"access_token\":\"a\",\"refresh_token\":{\"v\":1}}}",
                        OAuthCodes.REFRESH_TOKEN),
                Arguments.of(
                        "the refresh token is the access token",
                        Platform.CLAUDE,
                        claudeFile("\"accessToken\":\"same\",\"refreshToken\":\"same\""),
                        OAuthCodes.REFRESH_TOKEN),
                Arguments.of(
                        "an expiry as a string",
                        Platform.CLAUDE,
                        claudeFile(ok + ",\"expiresAt\":\"1780308000000\""),
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an expiry before 2000",
                        Platform.CLAUDE,
                        claudeFile(ok + ",\"expiresAt\":12345"),
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "a negative expiry",
                        Platform.CLAUDE,
                        claudeFile(ok + ",\"expiresAt\":-1"),
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an expiry years ahead",
                        Platform.CLAUDE,
                        claudeFile(ok + ",\"expiresAt\":"
                                + NOW.plusSeconds(400L * 86400).toEpochMilli()),
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an expiry beyond a long",
                        Platform.GEMINI,
                        "{\"access_token\":\"a\",\"refresh_token\":\"r\",\"expiry_date\":1e300}",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an expiry as a boolean",
                        Platform.GEMINI,
                        "{\"access_token\":\"a\",\"refresh_token\":\"r\",\"expiry_date\":true}",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "a JWT exp in the far future",
                        Platform.CODEX,
                        "{\"tokens\":{\"access_token\":\"" + jwt("{\"exp\":99999999999}")
                                + "\",\"refresh_token\":\"r\"}}",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an account id of the wrong type",
                        Platform.CODEX,
                        "{\"tokens\":{\"access_token\":\"a1\",\"refresh_token\":\"r1\",\"account_id\":7}}",
                        OAuthCodes.ACCOUNT_ID),
                Arguments.of(
                        "an account id on two lines",
                        Platform.CODEX,
                        "{\"tokens\":{\"access_token\":\"a1\",\"refresh_token\":\"r1\",\"account_id\":\"x\\ny\"}}",
                        OAuthCodes.ACCOUNT_ID),
                Arguments.of(
                        "an account id echoing the refresh token",
                        Platform.CODEX,
                        "{\"tokens\":{\"access_token\":\"a1\",\"refresh_token\":\"rt_secret_value\","
                                + "\"account_id\":\"rt_secret_value\"}}",
                        OAuthCodes.ACCOUNT_ID));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFiles")
    void aRefusedFileNamesItsCode(String why, Platform platform, String text, String code) {
        assertThatThrownBy(() -> CredentialFileImport.fromCredentialsJson(platform, text, NOW))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(code);
    }

    static Stream<Arguments> refusedFields() {
        return Stream.of(
                Arguments.of("no access token", "\"refresh_token\":\"r\"", OAuthCodes.ACCESS_TOKEN),
                Arguments.of(
                        "an access token number",
                        "\"access_token\":1,\"refresh_token\":\"r\"",
                        OAuthCodes.ACCESS_TOKEN),
                Arguments.of("no refresh token", "\"access_token\":\"a\"", OAuthCodes.REFRESH_TOKEN),
                Arguments.of(
                        "a refresh token with a space",
                        "\"access_token\":\"a\",\"refresh_token\":\"r r\"",
                        OAuthCodes.REFRESH_TOKEN),
                Arguments.of(
                        "an expiry that is not an instant",
                        "\"access_token\":\"a\",\"refresh_token\":\"r\",\"expires_at\":\"tomorrow\"",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "a fractional expiry",
                        "\"access_token\":\"a\",\"refresh_token\":\"r\",\"expires_at\":1.5",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an expiry object",
                        "\"access_token\":\"a\",\"refresh_token\":\"r\",\"expires_at\":{}",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an expiry in 1970",
                        "\"access_token\":\"a\",\"refresh_token\":\"r\",\"expires_at\":\"1970-01-01T00:00:00Z\"",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an expiry in 3000",
                        "\"access_token\":\"a\",\"refresh_token\":\"r\",\"expires_at\":\"3000-01-01T00:00:00Z\"",
                        OAuthCodes.EXPIRES_AT),
                Arguments.of(
                        "an account id echoing the access token",
                        "\"access_token\":\"tok-123456\",\"refresh_token\":\"r\",\"account_id\":\"id tok-123456\"",
                        OAuthCodes.ACCOUNT_ID),
                Arguments.of(
                        "an account id longer than 256",
                        "\"access_token\":\"a\",\"refresh_token\":\"r\",\"account_id\":\"" + "i".repeat(257) + "\"",
                        OAuthCodes.ACCOUNT_ID),
                Arguments.of(
                        "a blank account id",
                        "\"access_token\":\"a\",\"refresh_token\":\"r\",\"account_id\":\"   \"",
                        OAuthCodes.ACCOUNT_ID));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFields")
    void refusedTokenFieldsNameTheirCode(String why, String inner, String code) {
        ObjectNode body = fields(inner);
        assertThatThrownBy(() -> CredentialFileImport.fromFields(body, NOW))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(code);
    }

    @Test
    void theShapeOfEachPlatformsFileIsRecognised() {
        assertThat(CredentialFileImport.shapeOf(fields("\"claudeAiOauth\":{}"))).isEqualTo(Platform.CLAUDE);
        assertThat(CredentialFileImport.shapeOf(fields("\"tokens\":{}"))).isEqualTo(Platform.CODEX);
        assertThat(CredentialFileImport.shapeOf(fields("\"expiry_date\":1"))).isEqualTo(Platform.GEMINI);
        assertThat(CredentialFileImport.shapeOf(fields("\"other\":1"))).isNull();
    }
}
