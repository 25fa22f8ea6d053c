package io.routegateway.core.oauth;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;

/**
 * The body of a token-endpoint call, per platform: Codex and Claude send JSON (as their CLIs do),
 * Gemini (Google) and the others send {@code application/x-www-form-urlencoded} (RFC 6749 §4.1.3,
 * §6). {@link #toString()} never prints the body (it holds a refresh token or a code).
 */
public record TokenRequest(String contentType, String body) {

    public static final String JSON = "application/json";
    public static final String FORM = "application/x-www-form-urlencoded";

    /** A {@code refresh_token} grant. */
    public static TokenRequest refresh(
            Platform platform, String clientId, String clientSecret, String scopes, String refreshToken) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("grant_type", "refresh_token");
        fields.put("refresh_token", refreshToken);
        putIfPresent(fields, "client_id", clientId);
        putIfPresent(fields, "client_secret", clientSecret);
        if (platform == Platform.CODEX) {
            putIfPresent(fields, "scope", scopes);
        }
        return of(platform, fields);
    }

    /** An {@code authorization_code} grant with its PKCE verifier. */
    public static TokenRequest exchangeCode(
            Platform platform,
            String clientId,
            String clientSecret,
            String code,
            String verifier,
            String redirectUri,
            String state) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("grant_type", "authorization_code");
        fields.put("code", code);
        putIfPresent(fields, "redirect_uri", redirectUri);
        putIfPresent(fields, "client_id", clientId);
        putIfPresent(fields, "client_secret", clientSecret);
        putIfPresent(fields, "code_verifier", verifier);
        if (platform == Platform.CLAUDE) {
            putIfPresent(fields, "state", state);
        }
        return of(platform, fields);
    }

    private static TokenRequest of(Platform platform, Map<String, String> fields) {
        if (platform == Platform.CODEX || platform == Platform.CLAUDE) {
            return new TokenRequest(JSON, Json.write(fields));
        }
        return new TokenRequest(
                FORM,
                fields.entrySet().stream()
                        .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                        .collect(Collectors.joining("&")));
    }

    private static void putIfPresent(Map<String, String> fields, String name, String value) {
        if (value != null && !value.isBlank()) {
            fields.put(name, value);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "TokenRequest[contentType=" + contentType + ", body=***]";
    }
}
