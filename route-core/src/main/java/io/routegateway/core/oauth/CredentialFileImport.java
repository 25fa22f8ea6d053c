package io.routegateway.core.oauth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.text.StorableText;

/**
 * The OAuth material a user pastes to onboard an official account, read into {@link OAuthMaterial}
 * without I/O; every refusal is a {@link ValidationException} with an {@link OAuthCodes} code and a
 * message that never repeats a token.
 *
 * <p>The files each platform's CLI stores (see {@code docs/state-service.md}, "Onboarding an official
 * account", for where each shape is documented):
 *
 * <ul>
 *   <li>claude — Claude Code's {@code ~/.claude/.credentials.json}: {@code {"claudeAiOauth":
 *       {"accessToken","refreshToken","expiresAt": epoch ms,"scopes",…}}} (the inner object alone is
 *       accepted too).
 *   <li>codex — Codex CLI's {@code ~/.codex/auth.json}: {@code {"OPENAI_API_KEY":null,"tokens":
 *       {"id_token","access_token","refresh_token","account_id"},"last_refresh"}}. The file holds no
 *       expiry: it is the access token's JWT {@code exp}; the account id falls back to the id token's
 *       {@code https://api.openai.com/auth.chatgpt_account_id} claim.
 *   <li>gemini — Gemini CLI's {@code ~/.gemini/oauth_creds.json} (google-auth-library credentials):
 *       {@code {"access_token","refresh_token","expiry_date": epoch ms (may be fractional),"scope",
 *       "token_type","id_token"}}.
 *   <li>grok — no CLI file is known: send the token fields ({@link #fromFields}).
 * </ul>
 *
 * <p>An access token already past its expiry is accepted (state-service refreshes it at once); a
 * missing refresh token is refused, because such an account stops working within hours.
 */
public final class CredentialFileImport {

    /** Longest credentials text accepted (the real files are 1–5 KB). */
    public static final int MAX_JSON_CHARS = 65_536;
    /** Longest access or refresh token; they travel as HTTP header or form values. */
    public static final int MAX_TOKEN_CHARS = 8192;
    /** Longest account id. */
    public static final int MAX_ACCOUNT_ID_CHARS = 256;
    /** Earliest expiry that is not nonsense. */
    public static final Instant EARLIEST_EXPIRY = Instant.parse("2000-01-01T00:00:00Z");
    /** How far ahead an access token's expiry may lie (platforms issue hours to days). */
    public static final Duration LATEST_EXPIRY_AHEAD = Duration.ofDays(366);
    /** Epoch numbers below this are seconds, at or above it milliseconds (1e11 s is the year 5138). */
    static final long SECONDS_LIMIT = 100_000_000_000L;

    private static final ObjectReader STRICT = Json.MAPPER
            .reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private CredentialFileImport() {}

    /** Which credentials file a JSON object looks like; null when it is none of them. */
    static Platform shapeOf(ObjectNode root) {
        if (root.has("claudeAiOauth") || root.has("accessToken")) {
            return Platform.CLAUDE;
        }
        if (root.has("tokens") || root.has("OPENAI_API_KEY")) {
            return Platform.CODEX;
        }
        if (root.has("expiry_date") || root.has("access_token")) {
            return Platform.GEMINI;
        }
        return null;
    }

    /**
     * The platform's credentials file, pasted.
     *
     * @param now the time the paste arrives (bounds the expiry)
     */
    public static OAuthMaterial fromCredentialsJson(Platform platform, String text, Instant now) {
        ObjectNode root = parse(text);
        Platform shape = shapeOf(root);
        if (platform != Platform.CLAUDE && platform != Platform.CODEX && platform != Platform.GEMINI) {
            throw new ValidationException(
                    OAuthCodes.PLATFORM_SHAPE,
                    "no credentials file is known for platform " + platform.wire()
                            + "; send access_token, refresh_token, expires_at and account_id instead");
        }
        if (shape == null) {
            throw new ValidationException(OAuthCodes.PLATFORM_SHAPE, "this is not " + fileOf(platform));
        }
        if (shape != platform) {
            throw new ValidationException(
                    OAuthCodes.PLATFORM_SHAPE,
                    "this looks like " + fileOf(shape) + ", but the credential's platform is " + platform.wire() + " ("
                            + fileOf(platform) + ")");
        }
        return switch (platform) {
            case CLAUDE -> claude(root, now);
            case CODEX -> codex(root, now);
            default -> gemini(root, now);
        };
    }

    /**
     * The explicit token fields {@code access_token}, {@code refresh_token}, {@code expires_at} (an
     * ISO-8601 instant, or epoch seconds or milliseconds; absent: the access token's JWT {@code
     * exp}, else unknown) and {@code account_id} (optional).
     */
    public static OAuthMaterial fromFields(ObjectNode fields, Instant now) {
        String access = text(fields, "access_token", OAuthCodes.ACCESS_TOKEN);
        String refresh = text(fields, "refresh_token", OAuthCodes.REFRESH_TOKEN);
        String accountId = text(fields, "account_id", OAuthCodes.ACCOUNT_ID);
        JsonNode expires = fields.get("expires_at");
        Instant expiresAt;
        if (expires == null || expires.isNull()) {
            expiresAt = null;
        } else if (expires.isTextual()) {
            try {
                expiresAt = Instant.parse(expires.asText().strip());
            } catch (DateTimeParseException e) {
                throw new ValidationException(
                        OAuthCodes.EXPIRES_AT, "expires_at must be an ISO-8601 instant such as 2026-01-31T12:00:00Z");
            }
        } else if (expires.isIntegralNumber() && expires.canConvertToLong()) {
            long value = expires.longValue();
            expiresAt = value < SECONDS_LIMIT ? instantOfSeconds(value) : instantOfMillis(value);
        } else {
            throw new ValidationException(
                    OAuthCodes.EXPIRES_AT,
                    "expires_at must be an ISO-8601 instant or whole epoch seconds/milliseconds");
        }
        return material(access, "access_token", refresh, "refresh_token", expiresAt, accountId, now);
    }

    private static OAuthMaterial claude(ObjectNode root, Instant now) {
        JsonNode inner = root.has("claudeAiOauth") ? root.get("claudeAiOauth") : root;
        if (!inner.isObject()) {
            throw new ValidationException(OAuthCodes.PLATFORM_SHAPE, "claudeAiOauth must be a JSON object");
        }
        ObjectNode oauth = (ObjectNode) inner;
        String access = text(oauth, "accessToken", OAuthCodes.ACCESS_TOKEN);
        String refresh = text(oauth, "refreshToken", OAuthCodes.REFRESH_TOKEN);
        Instant expiresAt = epochMillis(oauth, "expiresAt");
        return material(access, "accessToken", refresh, "refreshToken", expiresAt, null, now);
    }

    private static OAuthMaterial codex(ObjectNode root, Instant now) {
        JsonNode tokens = root.get("tokens");
        if (tokens == null || tokens.isNull()) {
            throw new ValidationException(
                    OAuthCodes.PLATFORM_SHAPE,
                    "this auth.json holds no ChatGPT sign-in tokens (an OPENAI_API_KEY file is an api credential)");
        }
        if (!tokens.isObject()) {
            throw new ValidationException(OAuthCodes.PLATFORM_SHAPE, "tokens must be a JSON object");
        }
        ObjectNode fields = (ObjectNode) tokens;
        String access = text(fields, "access_token", OAuthCodes.ACCESS_TOKEN);
        String refresh = text(fields, "refresh_token", OAuthCodes.REFRESH_TOKEN);
        String accountId = text(fields, "account_id", OAuthCodes.ACCOUNT_ID);
        if (accountId == null) {
            JsonNode claims = jwtClaims(idToken(fields));
            JsonNode auth = claims == null ? null : claims.get("https://api.openai.com/auth");
            JsonNode fromClaim = auth == null ? null : auth.get("chatgpt_account_id");
            accountId = fromClaim != null && fromClaim.isTextual() ? fromClaim.asText() : null;
        }
        return material(access, "tokens.access_token", refresh, "tokens.refresh_token", null, accountId, now);
    }

    private static String idToken(ObjectNode tokens) {
        JsonNode id = tokens.get("id_token");
        return id != null && id.isTextual() ? id.asText() : null;
    }

    private static OAuthMaterial gemini(ObjectNode root, Instant now) {
        String access = text(root, "access_token", OAuthCodes.ACCESS_TOKEN);
        String refresh = text(root, "refresh_token", OAuthCodes.REFRESH_TOKEN);
        Instant expiresAt = epochMillis(root, "expiry_date");
        return material(access, "access_token", refresh, "refresh_token", expiresAt, null, now);
    }

    /** The checks every source shares; the expiry falls back to the access token's JWT {@code exp}. */
    private static OAuthMaterial material(
            String access,
            String accessName,
            String refresh,
            String refreshName,
            Instant expiresAt,
            String accountId,
            Instant now) {
        token(access, accessName, OAuthCodes.ACCESS_TOKEN);
        token(refresh, refreshName, OAuthCodes.REFRESH_TOKEN);
        if (access.equals(refresh)) {
            throw new ValidationException(
                    OAuthCodes.REFRESH_TOKEN, refreshName + " must not be the access token repeated");
        }
        if (accountId != null) {
            String id = accountId.strip();
            if (id.isEmpty() || !StorableText.isSingleLine(id, MAX_ACCOUNT_ID_CHARS)) {
                throw new ValidationException(
                        OAuthCodes.ACCOUNT_ID,
                        "account_id must be 1.." + MAX_ACCOUNT_ID_CHARS + " characters on one line");
            }
            if (id.contains(access) || id.contains(refresh) || access.contains(id) || refresh.contains(id)) {
                throw new ValidationException(OAuthCodes.ACCOUNT_ID, "account_id must not repeat a token");
            }
            accountId = id;
        }
        if (expiresAt == null) {
            expiresAt = jwtExpiry(access);
        }
        if (expiresAt != null
                && (expiresAt.isBefore(EARLIEST_EXPIRY) || expiresAt.isAfter(now.plus(LATEST_EXPIRY_AHEAD)))) {
            throw new ValidationException(
                    OAuthCodes.EXPIRES_AT,
                    "the access token's expiry " + expiresAt + " is not between " + EARLIEST_EXPIRY + " and "
                            + LATEST_EXPIRY_AHEAD.toDays() + " days from now");
        }
        return new OAuthMaterial(access, refresh, expiresAt, accountId);
    }

    private static void token(String token, String name, String code) {
        if (token == null || token.isBlank()) {
            throw new ValidationException(
                    code,
                    name + " is required"
                            + (code.equals(OAuthCodes.REFRESH_TOKEN)
                                    ? ": without it the account cannot refresh and stops within hours"
                                    : ""));
        }
        if (token.length() > MAX_TOKEN_CHARS) {
            throw new ValidationException(code, name + " must be at most " + MAX_TOKEN_CHARS + " characters");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < '!' || c > '~') {
                throw new ValidationException(
                        code, name + " must be printable ASCII without spaces; character " + i + " is not");
            }
        }
    }

    private static ObjectNode parse(String text) {
        if (text == null || text.isBlank()) {
            throw new ValidationException(OAuthCodes.CREDENTIALS_JSON, "credentials_json is required");
        }
        if (text.length() > MAX_JSON_CHARS) {
            throw new ValidationException(
                    OAuthCodes.CREDENTIALS_SIZE,
                    "credentials_json must be at most " + MAX_JSON_CHARS + " characters (got " + text.length() + ")");
        }
        if (!StorableText.isStorable(text)) {
            throw new ValidationException(
                    OAuthCodes.CREDENTIALS_JSON, "credentials_json must not contain U+0000 or unpaired surrogates");
        }
        JsonNode node;
        try {
            node = STRICT.readTree(text);
        } catch (IOException e) {
            // Jackson's message may quote the input (a token): only the position is repeated
            String where = e instanceof com.fasterxml.jackson.core.JsonProcessingException p && p.getLocation() != null
                    ? " at line " + p.getLocation().getLineNr() + ", column "
                            + p.getLocation().getColumnNr()
                    : "";
            throw new ValidationException(
                    OAuthCodes.CREDENTIALS_JSON, "credentials_json is not valid JSON (or repeats a key)" + where);
        }
        if (node == null || !node.isObject()) {
            throw new ValidationException(OAuthCodes.CREDENTIALS_JSON, "credentials_json must be one JSON object");
        }
        return (ObjectNode) node;
    }

    /** A string field, null when absent or JSON null; any other type is refused with {@code code}. */
    private static String text(ObjectNode node, String field, String code) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new ValidationException(code, field + " must be a string");
        }
        return value.asText();
    }

    /** A numeric epoch-milliseconds field (fractions dropped), null when absent. */
    private static Instant epochMillis(ObjectNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isNumber() || !Double.isFinite(value.doubleValue()) || !value.canConvertToLong()) {
            throw new ValidationException(OAuthCodes.EXPIRES_AT, field + " must be a number of epoch milliseconds");
        }
        if (value.isFloatingPointNumber() && Math.abs(value.doubleValue()) >= 1e15) {
            throw new ValidationException(OAuthCodes.EXPIRES_AT, field + " is out of range");
        }
        long millis = value.isIntegralNumber() ? value.longValue() : (long) Math.floor(value.doubleValue());
        return instantOfMillis(millis);
    }

    private static Instant instantOfSeconds(long seconds) {
        if (seconds < EARLIEST_EXPIRY.getEpochSecond()) {
            throw new ValidationException(
                    OAuthCodes.EXPIRES_AT, "the access token's expiry is before " + EARLIEST_EXPIRY);
        }
        return Instant.ofEpochSecond(seconds);
    }

    private static Instant instantOfMillis(long millis) {
        if (millis < EARLIEST_EXPIRY.toEpochMilli()) {
            throw new ValidationException(
                    OAuthCodes.EXPIRES_AT, "the access token's expiry is before " + EARLIEST_EXPIRY);
        }
        if (millis > 253_402_300_799_999L) {
            // past 9999-12-31: certainly nonsense, and Instant arithmetic stays safe
            throw new ValidationException(OAuthCodes.EXPIRES_AT, "the access token's expiry is out of range");
        }
        return Instant.ofEpochMilli(millis);
    }

    /** The {@code exp} claim of a JWT access token, null when the token is not a JWT or has none. */
    static Instant jwtExpiry(String token) {
        JsonNode claims = jwtClaims(token);
        JsonNode exp = claims == null ? null : claims.get("exp");
        if (exp == null || !exp.isIntegralNumber() || !exp.canConvertToLong()) {
            return null;
        }
        long seconds = exp.longValue();
        if (seconds < EARLIEST_EXPIRY.getEpochSecond() || seconds >= SECONDS_LIMIT) {
            throw new ValidationException(OAuthCodes.EXPIRES_AT, "the access token's exp claim is out of range");
        }
        return Instant.ofEpochSecond(seconds);
    }

    /** The payload of a JWT ({@code header.payload.signature}), null when the text is not one. */
    static JsonNode jwtClaims(String token) {
        if (token == null) {
            return null;
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return null;
        }
        try {
            byte[] payload = Base64.getUrlDecoder().decode(parts[1]);
            JsonNode claims = Json.MAPPER.readTree(new String(payload, StandardCharsets.UTF_8));
            return claims != null && claims.isObject() ? claims : null;
        } catch (IllegalArgumentException | IOException e) {
            return null;
        }
    }

    private static String fileOf(Platform platform) {
        return switch (platform) {
            case CLAUDE -> "Claude Code's ~/.claude/.credentials.json";
            case CODEX -> "Codex CLI's ~/.codex/auth.json";
            case GEMINI -> "Gemini CLI's ~/.gemini/oauth_creds.json";
            default -> "a credentials file";
        };
    }
}
