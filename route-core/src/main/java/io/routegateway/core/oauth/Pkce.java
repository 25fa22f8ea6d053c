package io.routegateway.core.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.text.StorableText;

/**
 * The authorization-code flow with PKCE (RFC 7636, method {@code S256}) as pure functions: the
 * caller supplies the random bytes, so a test can fix them. A verifier is 32 random bytes in
 * base64url (43 characters, the RFC's minimum entropy); the state is 24 random bytes in base64url
 * (32 characters), single use and short-lived (state-service keeps it 10 minutes).
 */
public final class Pkce {

    /** Random bytes of a verifier. */
    public static final int VERIFIER_BYTES = 32;
    /** Random bytes of a state. */
    public static final int STATE_BYTES = 24;
    /** Longest callback URL or code accepted. */
    public static final int MAX_CALLBACK_CHARS = 8192;
    /** Longest redirect URI accepted. */
    public static final int MAX_REDIRECT_URI_CHARS = 2048;

    /** What a state this class issues looks like (and what a callback's state must look like). */
    public static final Pattern STATE = Pattern.compile("[A-Za-z0-9_-]{16,128}");

    private static final Pattern CODE = Pattern.compile("[\\x21-\\x7E]{1,4096}");
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private Pkce() {}

    /** A code verifier: base64url of {@link #VERIFIER_BYTES} random bytes. */
    public static String verifier(byte[] random) {
        requireLength(random, VERIFIER_BYTES);
        return BASE64URL.encodeToString(random);
    }

    /** A state: base64url of {@link #STATE_BYTES} random bytes. */
    public static String state(byte[] random) {
        requireLength(random, STATE_BYTES);
        return BASE64URL.encodeToString(random);
    }

    /** The S256 challenge: base64url(SHA-256(ASCII(verifier))). */
    public static String challenge(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return BASE64URL.encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * The URL the user opens: the configured authorize URL (which may already carry a query, e.g.
     * Claude's {@code code=true}) plus {@code response_type=code}, {@code client_id}, {@code
     * redirect_uri}, {@code scope} (space-separated, left out when empty), {@code code_challenge},
     * {@code code_challenge_method=S256} and {@code state}, each form-encoded.
     */
    public static String authorizeUrl(
            String authorizeUrl,
            String clientId,
            String redirectUri,
            List<String> scopes,
            String challenge,
            String state,
            Map<String, String> extraParameters) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("response_type", "code");
        params.put("client_id", clientId);
        params.put("redirect_uri", redirectUri);
        if (scopes != null && !scopes.isEmpty()) {
            params.put("scope", String.join(" ", scopes));
        }
        params.put("code_challenge", challenge);
        params.put("code_challenge_method", "S256");
        params.put("state", state);
        if (extraParameters != null) {
            extraParameters.forEach(params::putIfAbsent);
        }
        StringBuilder url = new StringBuilder(authorizeUrl);
        char separator = authorizeUrl.contains("?") ? '&' : '?';
        if (authorizeUrl.endsWith("?") || authorizeUrl.endsWith("&")) {
            separator = 0;
        }
        for (Map.Entry<String, String> param : params.entrySet()) {
            if (separator != 0) {
                url.append(separator);
            }
            url.append(encode(param.getKey())).append('=').append(encode(param.getValue()));
            separator = '&';
        }
        return url.toString();
    }

    /**
     * A redirect URI an operator or the console sends: an absolute http(s) URL with a host, without
     * a fragment or user info, at most {@link #MAX_REDIRECT_URI_CHARS} characters.
     */
    public static String redirectUri(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new ValidationException(OAuthCodes.REDIRECT_URI, "redirect_uri must not be blank");
        }
        String trimmed = uri.strip();
        if (!StorableText.isSingleLine(trimmed, MAX_REDIRECT_URI_CHARS)) {
            throw new ValidationException(
                    OAuthCodes.REDIRECT_URI,
                    "redirect_uri must be at most " + MAX_REDIRECT_URI_CHARS
                            + " characters on one line, without U+0000 or control characters");
        }
        try {
            URI parsed = new URI(trimmed);
            String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || parsed.getHost() == null) {
                throw new ValidationException(OAuthCodes.REDIRECT_URI, "redirect_uri must be an absolute http(s) URL");
            }
            if (parsed.getRawFragment() != null || parsed.getRawUserInfo() != null) {
                throw new ValidationException(
                        OAuthCodes.REDIRECT_URI, "redirect_uri must not carry a fragment or user info");
            }
        } catch (URISyntaxException e) {
            throw new ValidationException(OAuthCodes.REDIRECT_URI, "redirect_uri is not a valid URL");
        }
        return trimmed;
    }

    /** What the platform handed back: the code and the state it was issued with. */
    public record Callback(String code, String state) {

        /** Never prints the code: it can be exchanged for tokens. */
        @Override
        public String toString() {
            return "Callback[code=***, state=" + state + "]";
        }
    }

    /**
     * The code and state from the URL the browser landed on ({@code …?code=…&state=…}), pasted by
     * the user. An {@code error} parameter (the user declined) is refused with its value. Claude's
     * manual flow shows {@code code#state}: a fragment holding the state is read too.
     */
    public static Callback parseCallbackUrl(String callbackUrl) {
        if (callbackUrl == null || callbackUrl.isBlank()) {
            throw new ValidationException(OAuthCodes.CALLBACK, "callback_url must not be blank");
        }
        String trimmed = callbackUrl.strip();
        if (!StorableText.isSingleLine(trimmed, MAX_CALLBACK_CHARS)) {
            throw new ValidationException(
                    OAuthCodes.CALLBACK,
                    "callback_url must be at most " + MAX_CALLBACK_CHARS
                            + " characters on one line, without U+0000 or control characters");
        }
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new ValidationException(OAuthCodes.CALLBACK, "callback_url is not a valid URL");
        }
        Map<String, String> query = query(uri.getRawQuery());
        if (query.containsKey("error")) {
            throw new ValidationException(
                    OAuthCodes.CALLBACK,
                    "the platform refused the authorization: error=" + StorableText.quote(query.get("error")));
        }
        String code = query.get("code");
        String state = query.get("state");
        if (state == null && uri.getRawFragment() != null) {
            state = decode(uri.getRawFragment());
        }
        if (code == null) {
            throw new ValidationException(OAuthCodes.CALLBACK, "callback_url carries no code parameter");
        }
        return callback(code, state);
    }

    /**
     * A code and state sent as fields. A code of the form {@code code#state} (what Claude's
     * authorization page shows) is split when no state is sent, or when the state sent is the same.
     */
    public static Callback callback(String code, String state) {
        if (code == null || code.isBlank()) {
            throw new ValidationException(OAuthCodes.CALLBACK, "code must not be blank");
        }
        String trimmed = code.strip();
        int hash = trimmed.indexOf('#');
        if (hash >= 0) {
            String embedded = trimmed.substring(hash + 1);
            if (state != null && !state.strip().equals(embedded)) {
                throw new ValidationException(
                        OAuthCodes.STATE, "the state after '#' in the code is not the state sent");
            }
            state = embedded;
            trimmed = trimmed.substring(0, hash);
        }
        if (!CODE.matcher(trimmed).matches()) {
            throw new ValidationException(
                    OAuthCodes.CALLBACK, "code must be 1..4096 printable ASCII characters without spaces");
        }
        if (state == null || state.isBlank()) {
            throw new ValidationException(OAuthCodes.STATE, "state is required (it names the authorization started)");
        }
        String stateTrimmed = state.strip();
        if (!STATE.matcher(stateTrimmed).matches()) {
            throw new ValidationException(OAuthCodes.STATE, "state is not one this gateway issues");
        }
        return new Callback(trimmed, stateTrimmed);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (out.containsKey(key)) {
                throw new ValidationException(
                        OAuthCodes.CALLBACK, "callback_url repeats the parameter " + StorableText.quote(key));
            }
            out.put(key, value);
        }
        return out;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(OAuthCodes.CALLBACK, "callback_url holds a malformed %-escape");
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static void requireLength(byte[] random, int length) {
        if (random == null || random.length != length) {
            throw new IllegalArgumentException("expected " + length + " random bytes");
        }
    }
}
