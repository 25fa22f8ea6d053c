package io.routegateway.core.oauth;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;

/**
 * A token endpoint's answer (refresh or authorization-code exchange), parsed per platform. Pure:
 * the time the answer arrived is passed in. Never keeps the raw body of a success (it holds tokens).
 */
public sealed interface TokenResponse permits TokenResponse.Tokens, TokenResponse.Failure {

    /** A 2xx answer carrying an access token. */
    record Tokens(OAuthMaterial material) implements TokenResponse {}

    /**
     * Anything else: a non-2xx status, a transport failure (status null) or a 2xx without an access
     * token.
     *
     * @param error RFC 6749 {@code error} (e.g. {@code invalid_grant}), may be null
     * @param description {@code error_description} or the body's message, may be null
     */
    record Failure(Integer status, String error, String description) implements TokenResponse {

        /** The texts the permanent-marker rule reads. */
        public String[] texts() {
            return new String[] {error, description};
        }

        @Override
        public String toString() {
            return "Failure[status=" + status + ", error=" + error + ", description=" + description + "]";
        }
    }

    /** A transport failure (no answer): always transient. */
    static Failure transport(String message) {
        return new Failure(null, null, message);
    }

    /**
     * Parses an answer.
     *
     * <ul>
     *   <li>Codex (auth.openai.com): {@code access_token}, {@code refresh_token} (rotated on every
     *       use), {@code id_token}, optional {@code expires_in}; the account id is the {@code
     *       chatgpt_account_id} claim of {@code https://api.openai.com/auth} in the id token (else
     *       in the access token); without {@code expires_in} the access token's JWT {@code exp}.
     *   <li>Claude (console.anthropic.com): {@code access_token}, {@code refresh_token}, {@code
     *       expires_in}, {@code account.uuid} (else {@code organization.uuid}).
     *   <li>Gemini (oauth2.googleapis.com): {@code access_token}, {@code expires_in}; Google does
     *       not rotate refresh tokens, so a refresh answer usually carries none (the held one stays).
     *   <li>Others: the RFC 6749 fields.
     * </ul>
     *
     * @param status null for a transport failure
     */
    static TokenResponse parse(Platform platform, Integer status, String body, Instant receivedAt) {
        JsonNode json = parseOrNull(body);
        if (status == null || status < 200 || status > 299) {
            return failure(status, json, body);
        }
        String access = text(json, "access_token");
        if (access == null) {
            return new Failure(status, text(json, "error"), "token endpoint answered without an access token");
        }
        Instant expires = expiresAt(json, receivedAt);
        String accountId = null;
        if (platform == Platform.CODEX) {
            accountId = codexAccountId(text(json, "id_token"));
            if (accountId == null) {
                accountId = codexAccountId(access);
            }
            if (expires == null) {
                expires = jwtExpiry(access);
            }
        } else if (platform == Platform.CLAUDE) {
            accountId = nested(json, "account", "uuid");
            if (accountId == null) {
                accountId = nested(json, "organization", "uuid");
            }
        }
        return new Tokens(new OAuthMaterial(access, text(json, "refresh_token"), expires, accountId));
    }

    private static Failure failure(Integer status, JsonNode json, String body) {
        if (json != null && json.isObject()) {
            JsonNode error = json.get("error");
            if (error != null && error.isObject()) {
                return new Failure(
                        status,
                        firstNonNull(text(error, "code"), text(error, "type")),
                        firstNonNull(text(error, "message"), text(json, "error_description")));
            }
            return new Failure(
                    status, text(json, "error"), firstNonNull(text(json, "error_description"), text(json, "message")));
        }
        String raw = body == null || body.isBlank() ? null : body.strip();
        if (raw != null && raw.length() > 512) {
            raw = raw.substring(0, 512);
        }
        return new Failure(status, null, raw);
    }

    private static Instant expiresAt(JsonNode json, Instant receivedAt) {
        JsonNode expiresIn = json.get("expires_in");
        if (expiresIn != null && expiresIn.canConvertToLong() && expiresIn.asLong() > 0) {
            return receivedAt.plusSeconds(expiresIn.asLong());
        }
        if (expiresIn != null && expiresIn.isTextual()) {
            try {
                long seconds = Long.parseLong(expiresIn.asText().strip());
                return seconds > 0 ? receivedAt.plusSeconds(seconds) : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** The {@code chatgpt_account_id} claim of a Codex JWT, or null. */
    static String codexAccountId(String jwt) {
        JsonNode claims = jwtClaims(jwt);
        if (claims == null) {
            return null;
        }
        String id = nested(claims, "https://api.openai.com/auth", "chatgpt_account_id");
        return id != null ? id : text(claims, "chatgpt_account_id");
    }

    /** The {@code exp} claim of a JWT, or null. */
    static Instant jwtExpiry(String jwt) {
        JsonNode claims = jwtClaims(jwt);
        JsonNode exp = claims == null ? null : claims.get("exp");
        return exp != null && exp.canConvertToLong() ? Instant.ofEpochSecond(exp.asLong()) : null;
    }

    private static JsonNode jwtClaims(String jwt) {
        if (jwt == null) {
            return null;
        }
        String[] parts = jwt.split("\\.");
        if (parts.length != 3) {
            return null;
        }
        try {
            String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
            JsonNode node = Json.MAPPER.readTree(payload);
            return node != null && node.isObject() ? node : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static JsonNode parseOrNull(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode node = Json.MAPPER.readTree(body);
            return node != null && node.isObject() ? node : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static String nested(JsonNode json, String object, String field) {
        JsonNode inner = json == null ? null : json.get(object);
        return inner != null && inner.isObject() ? text(inner, field) : null;
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json == null ? null : json.get(field);
        if (value == null || !value.isValueNode() || value.isNull()) {
            return null;
        }
        String text = value.asText();
        return text.isBlank() ? null : text;
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }
}
