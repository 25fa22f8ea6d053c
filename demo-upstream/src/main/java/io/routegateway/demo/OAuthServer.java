package io.routegateway.demo;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The mock OAuth authorization server of the demo upstream: what a subscription platform's token
 * endpoint does to the gateway's refresher, with switches and counters for the tests.
 *
 * <ul>
 *   <li>{@code POST /oauth/token} (JSON or form body): {@code grant_type=refresh_token} rotates the
 *       refresh token (each use answers a new one and retires the old one; a retired one used again
 *       answers {@code 400 invalid_grant "refresh token has been revoked"} and is counted as a reuse);
 *       {@code grant_type=authorization_code} checks the PKCE {@code code_verifier} against the
 *       S256 challenge of {@code /oauth/authorize}; a code is single use.
 *   <li>{@code GET /oauth/authorize}: auto-consent, redirects to {@code redirect_uri} with {@code
 *       code} and {@code state}; the account is {@code login_hint} (else a new one).
 *   <li>Access tokens start with {@link #ACCESS_PREFIX}; the official paths of the demo upstream
 *       accept only a known, unexpired one ({@link #accountOf}); the account it belongs to is the
 *       demo account whose behaviour and request counts apply.
 * </ul>
 *
 * Thread-safe: the HTTP handlers and the tests' direct calls share one lock.
 */
public final class OAuthServer {

    /**
     * Every access token this server issues starts with this: the base64url header of an unsigned
     * JWT ({@code {"alg":"none","typ":"JWT","kid":"mock-oauth"}}). The payload carries {@code sub},
     * {@code exp} and the ChatGPT account claim, as the platforms' access tokens do, so a pasted
     * Codex {@code auth.json} yields its expiry.
     */
    public static final String ACCESS_PREFIX = Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\",\"kid\":\"mock-oauth\"}"
                            .getBytes(StandardCharsets.UTF_8))
            + ".";

    public static final String REFRESH_PREFIX = "mock-ort-";
    static final String REVOKED_DESCRIPTION = "refresh token has been revoked";
    static final Duration DEFAULT_ACCESS_TTL = Duration.ofHours(1);
    static final Duration CODE_TTL = Duration.ofMinutes(10);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Clock clock;

    // ---- state (guarded by this) ----
    private final Map<String, AccessToken> accessTokens = new HashMap<>();
    /** Every refresh token ever issued; {@code current} false once it was used (rotated). */
    private final Map<String, RefreshToken> refreshTokens = new HashMap<>();

    private final Map<String, PendingCode> codes = new HashMap<>();
    private final Map<String, Long> refreshesPerAccount = new TreeMap<>();
    private final Map<String, Long> invalidGrantsPerAccount = new TreeMap<>();
    private final java.util.Set<String> invalidGrantAccounts = new java.util.TreeSet<>();
    private int accountSequence;

    // ---- switches ----
    private Duration accessTtl = DEFAULT_ACCESS_TTL;
    private boolean invalidGrant;
    private int failStatus;
    private long delayMs;
    private boolean revokeOldAccess;

    // ---- counters ----
    private long tokenCalls;
    private long refreshCalls;
    private long refreshSuccesses;
    private long codeExchanges;
    private long refreshReuse;
    private long invalidGrantAnswers;
    private long failedAnswers;
    private long rejectedAccess;

    private record AccessToken(String accountId, Instant expiresAt) {}

    private static final class RefreshToken {
        final String accountId;
        boolean current = true;

        RefreshToken(String accountId) {
            this.accountId = accountId;
        }
    }

    private record PendingCode(
            String accountId,
            String challenge,
            String method,
            String redirectUri,
            String clientId,
            Instant expiresAt) {}

    /** OAuth material as a platform hands it out (and as the onboarding API takes it). */
    public record Grant(String accessToken, String refreshToken, Instant expiresAt, String accountId) {
        @Override
        public String toString() {
            return "Grant[account=" + accountId + ", expiresAt=" + expiresAt + "]";
        }
    }

    /** What a token call answered: the status and the JSON body. */
    public record Answer(int status, String body) {}

    public OAuthServer(Clock clock) {
        this.clock = clock;
    }

    // ---- switches and counters (the tests call these, or {@code /_control/oauth}) ----

    /** Lifetime of the access tokens issued from now on. */
    public synchronized void setAccessTtl(Duration ttl) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("access_ttl_seconds must be positive");
        }
        accessTtl = ttl;
    }

    /** Every refresh (and code exchange) answers {@code 400 invalid_grant} while on. */
    public synchronized void setInvalidGrant(boolean on) {
        invalidGrant = on;
    }

    /** The refreshes of one account answer {@code 400 invalid_grant} while on (others are unaffected). */
    public synchronized void setInvalidGrant(String accountId, boolean on) {
        if (on) {
            invalidGrantAccounts.add(accountId);
        } else {
            invalidGrantAccounts.remove(accountId);
        }
    }

    /** Every token call answers this status (e.g. 503) with a temporary error; 0 = off. */
    public synchronized void setFailStatus(int status) {
        if (status != 0 && (status < 400 || status > 599)) {
            throw new IllegalArgumentException("fail_status must be 0 or 400..599");
        }
        failStatus = status;
    }

    /** Delay before each token answer (widens the window a second refresher would need). */
    public synchronized void setDelayMs(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("delay_ms must not be negative");
        }
        delayMs = millis;
    }

    /** A refresh also invalidates the account's older access tokens at once (default: they live until expiry). */
    public synchronized void setRevokeOldAccess(boolean on) {
        revokeOldAccess = on;
    }

    /** Switches back to their defaults; tokens and counters stay. */
    public synchronized void resetSwitches() {
        accessTtl = DEFAULT_ACCESS_TTL;
        invalidGrant = false;
        invalidGrantAccounts.clear();
        failStatus = 0;
        delayMs = 0;
        revokeOldAccess = false;
    }

    synchronized long delayMs() {
        return delayMs;
    }

    /** Every call at {@code /oauth/token}, whatever its answer. */
    public synchronized long tokenCalls() {
        return tokenCalls;
    }

    /** {@code grant_type=refresh_token} calls, whatever their answer. */
    public synchronized long refreshCalls() {
        return refreshCalls;
    }

    public synchronized long refreshSuccesses() {
        return refreshSuccesses;
    }

    /** Refresh calls for one account that presented a current refresh token. */
    public synchronized long refreshCalls(String accountId) {
        return refreshesPerAccount.getOrDefault(accountId, 0L);
    }

    public synchronized long codeExchanges() {
        return codeExchanges;
    }

    /** Refresh calls that presented a refresh token already rotated away: two refreshers raced. */
    public synchronized long refreshReuse() {
        return refreshReuse;
    }

    public synchronized long invalidGrantAnswers() {
        return invalidGrantAnswers;
    }

    /** {@code invalid_grant} answers to refreshes of one account's refresh tokens. */
    public synchronized long invalidGrantAnswers(String accountId) {
        return invalidGrantsPerAccount.getOrDefault(accountId, 0L);
    }

    /** Official requests refused with 401: an unknown, expired or revoked access token. */
    public synchronized long rejectedAccess() {
        return rejectedAccess;
    }

    public synchronized ObjectNode describe() {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("switches")
                .put("access_ttl_seconds", accessTtl.toSeconds())
                .put("invalid_grant", invalidGrant)
                .put("invalid_grant_accounts", String.join(",", invalidGrantAccounts))
                .put("fail_status", failStatus)
                .put("delay_ms", delayMs)
                .put("revoke_old_access", revokeOldAccess);
        ObjectNode counters = root.putObject("counters")
                .put("token_calls", tokenCalls)
                .put("refresh_calls", refreshCalls)
                .put("refresh_successes", refreshSuccesses)
                .put("code_exchanges", codeExchanges)
                .put("refresh_reuse", refreshReuse)
                .put("invalid_grant_answers", invalidGrantAnswers)
                .put("failed_answers", failedAnswers)
                .put("rejected_access", rejectedAccess);
        ObjectNode perAccount = counters.putObject("refreshes_per_account");
        refreshesPerAccount.forEach(perAccount::put);
        ObjectNode refusedPerAccount = counters.putObject("invalid_grants_per_account");
        invalidGrantsPerAccount.forEach(refusedPerAccount::put);
        return root;
    }

    /** Applies a {@code PUT /_control/oauth} body: any of the switches, by their JSON names. */
    public synchronized void configure(JsonNode spec) {
        if (!spec.isObject()) {
            throw new IllegalArgumentException("the body must be a JSON object");
        }
        if (spec.has("access_ttl_seconds")) {
            setAccessTtl(Duration.ofSeconds(number(spec, "access_ttl_seconds")));
        }
        if (spec.has("invalid_grant")) {
            setInvalidGrant(bool(spec, "invalid_grant"));
        }
        if (spec.has("invalid_grant_account")) {
            JsonNode account = spec.get("invalid_grant_account");
            if (!account.isTextual() || account.asText().isBlank()) {
                throw new IllegalArgumentException("invalid_grant_account must be an account id");
            }
            setInvalidGrant(
                    account.asText(), !spec.has("invalid_grant_account_on") || bool(spec, "invalid_grant_account_on"));
        }
        if (spec.has("fail_status")) {
            setFailStatus((int) number(spec, "fail_status"));
        }
        if (spec.has("delay_ms")) {
            setDelayMs(number(spec, "delay_ms"));
        }
        if (spec.has("revoke_old_access")) {
            setRevokeOldAccess(bool(spec, "revoke_old_access"));
        }
    }

    // ---- grants ----

    /**
     * Issues fresh material for {@code accountId} (a new account when null), as if its owner had just
     * logged in with the platform's CLI: what a test or the demo pastes into the onboarding API.
     */
    public synchronized Grant issue(String accountId) {
        return issue(accountId, accessTtl);
    }

    /** {@link #issue(String)} with an access token of this lifetime. */
    public synchronized Grant issue(String accountId, Duration ttl) {
        String account = accountId == null || accountId.isBlank() ? newAccount() : accountId;
        // whole seconds: the JWT's exp and expires_at say the same
        Instant expires = clock.instant().plus(ttl).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String access = accessToken(account, expires);
        String refresh = REFRESH_PREFIX + token();
        accessTokens.put(access, new AccessToken(account, expires));
        refreshTokens.put(refresh, new RefreshToken(account));
        return new Grant(access, refresh, expires, account);
    }

    /**
     * The account a presented access token belongs to; null for a token this server did not issue,
     * one past its expiry, or one revoked by a later refresh (counted as {@link #rejectedAccess}).
     */
    public synchronized String accountOf(String accessToken) {
        AccessToken known = accessTokens.get(accessToken);
        if (known == null || !clock.instant().isBefore(known.expiresAt())) {
            rejectedAccess++;
            return null;
        }
        return known.accountId();
    }

    // ---- /oauth/authorize ----

    /**
     * The redirect of an auto-consented authorization request, or an error text (→ 400) when the
     * request lacks what a PKCE authorization-code flow needs.
     */
    public synchronized Answer authorize(Map<String, String> query) {
        String redirect = query.get("redirect_uri");
        String state = query.get("state");
        String challenge = query.get("code_challenge");
        String method = query.getOrDefault("code_challenge_method", "plain");
        if (!"code".equals(query.get("response_type"))) {
            return new Answer(400, error("unsupported_response_type", "response_type must be code"));
        }
        if (redirect == null || redirect.isBlank() || state == null || state.isBlank()) {
            return new Answer(400, error("invalid_request", "redirect_uri and state are required"));
        }
        if (challenge == null || challenge.isBlank() || !"S256".equals(method)) {
            return new Answer(400, error("invalid_request", "PKCE with code_challenge_method=S256 is required"));
        }
        String account = query.get("login_hint");
        if (account == null || account.isBlank()) {
            account = newAccount();
        }
        String code = "mock-code-" + token();
        codes.put(
                code,
                new PendingCode(
                        account,
                        challenge,
                        method,
                        redirect,
                        query.get("client_id"),
                        clock.instant().plus(CODE_TTL)));
        String location =
                redirect + (redirect.contains("?") ? "&" : "?") + "code=" + encode(code) + "&state=" + encode(state);
        return new Answer(302, location);
    }

    // ---- /oauth/token ----

    /** Parses a token request body: JSON when it looks like JSON, else form-encoded. */
    static Map<String, String> parameters(String contentType, byte[] body) {
        Map<String, String> parameters = new LinkedHashMap<>();
        String text = new String(body, StandardCharsets.UTF_8).trim();
        boolean json = (contentType != null && contentType.contains("json")) || text.startsWith("{");
        if (json) {
            try {
                JsonNode node = JSON.readTree(text.isEmpty() ? "{}" : text);
                if (node.isObject()) {
                    node.fields().forEachRemaining(field -> {
                        if (field.getValue().isValueNode()) {
                            parameters.put(field.getKey(), field.getValue().asText());
                        }
                    });
                }
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("malformed JSON body");
            }
            return parameters;
        }
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            parameters.put(decode(key), decode(value));
        }
        return parameters;
    }

    /** One call at the token endpoint. */
    public synchronized Answer token(Map<String, String> parameters) {
        tokenCalls++;
        String grantType = parameters.getOrDefault("grant_type", "");
        if (grantType.equals("refresh_token")) {
            refreshCalls++;
        }
        if (failStatus != 0) {
            failedAnswers++;
            return new Answer(failStatus, error("temporarily_unavailable", "the token service is unavailable"));
        }
        switch (grantType) {
            case "refresh_token":
                return refresh(parameters.get("refresh_token"));
            case "authorization_code":
                return exchange(parameters);
            default:
                return new Answer(
                        400, error("unsupported_grant_type", "grant_type " + grantType + " is not supported"));
        }
    }

    private Answer refresh(String presented) {
        if (presented == null || presented.isBlank()) {
            return new Answer(400, error("invalid_request", "refresh_token is required"));
        }
        RefreshToken known = refreshTokens.get(presented);
        if (known == null) {
            invalidGrantAnswers++;
            return new Answer(400, error("invalid_grant", "refresh token not found"));
        }
        if (!known.current) {
            refreshReuse++;
            return refused(known.accountId);
        }
        if (invalidGrant || invalidGrantAccounts.contains(known.accountId)) {
            return refused(known.accountId);
        }
        known.current = false;
        refreshSuccesses++;
        refreshesPerAccount.merge(known.accountId, 1L, Long::sum);
        if (revokeOldAccess) {
            accessTokens.values().removeIf(token -> token.accountId().equals(known.accountId));
        }
        return new Answer(200, tokenBody(known.accountId));
    }

    private Answer refused(String accountId) {
        invalidGrantAnswers++;
        invalidGrantsPerAccount.merge(accountId, 1L, Long::sum);
        return new Answer(400, error("invalid_grant", REVOKED_DESCRIPTION));
    }

    private Answer exchange(Map<String, String> parameters) {
        codeExchanges++;
        String code = parameters.get("code");
        PendingCode pending = code == null ? null : codes.remove(code);
        if (pending == null || !clock.instant().isBefore(pending.expiresAt())) {
            invalidGrantAnswers++;
            return new Answer(400, error("invalid_grant", "authorization code is invalid, expired or used"));
        }
        String redirect = parameters.get("redirect_uri");
        if (redirect != null && !redirect.equals(pending.redirectUri())) {
            invalidGrantAnswers++;
            return new Answer(400, error("invalid_grant", "redirect_uri does not match the authorization request"));
        }
        String verifier = parameters.get("code_verifier");
        if (verifier == null || !s256(verifier).equals(pending.challenge())) {
            invalidGrantAnswers++;
            return new Answer(400, error("invalid_grant", "code_verifier does not match the code_challenge"));
        }
        if (invalidGrant) {
            invalidGrantAnswers++;
            return new Answer(400, error("invalid_grant", REVOKED_DESCRIPTION));
        }
        return new Answer(200, tokenBody(pending.accountId()));
    }

    /**
     * A token answer carrying what each platform's parser looks for: the standard fields, {@code
     * account_id}, Claude's {@code account.uuid} / {@code organization.uuid}, and an unsigned
     * {@code id_token} with the ChatGPT account claim Codex reads.
     */
    private String tokenBody(String accountId) {
        Grant grant = issue(accountId, accessTtl);
        ObjectNode body = JSON.createObjectNode()
                .put("access_token", grant.accessToken())
                .put("refresh_token", grant.refreshToken())
                .put("token_type", "Bearer")
                .put("expires_in", accessTtl.toSeconds())
                .put("scope", "openid profile email offline_access")
                .put("account_id", accountId)
                .put("id_token", idToken(accountId));
        body.putObject("account").put("uuid", accountId).put("email_address", accountId + "@demo.invalid");
        body.putObject("organization").put("uuid", "org-" + accountId);
        return body.toString();
    }

    static String idToken(String accountId) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        ObjectNode claims = JSON.createObjectNode().put("sub", accountId).put("email", accountId + "@demo.invalid");
        claims.putObject("https://api.openai.com/auth").put("chatgpt_account_id", accountId);
        return url.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + url.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8)) + ".";
    }

    private String accessToken(String accountId, Instant expires) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        ObjectNode claims = JSON.createObjectNode()
                .put("sub", accountId)
                .put("iat", clock.instant().getEpochSecond())
                .put("exp", expires.getEpochSecond())
                .put("jti", token());
        claims.putObject("https://api.openai.com/auth").put("chatgpt_account_id", accountId);
        return ACCESS_PREFIX + url.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8)) + ".";
    }

    static String s256(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String error(String code, String description) {
        return JSON.createObjectNode()
                .put("error", code)
                .put("error_description", description)
                .toString();
    }

    private String newAccount() {
        accountSequence++;
        return "mock-account-" + accountSequence;
    }

    private static String token() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static long number(JsonNode spec, String field) {
        JsonNode value = spec.get(field);
        if (!value.canConvertToLong() || !value.isNumber()) {
            throw new IllegalArgumentException(field + " must be a number");
        }
        return value.asLong();
    }

    private static boolean bool(JsonNode spec, String field) {
        JsonNode value = spec.get(field);
        if (!value.isBoolean()) {
            throw new IllegalArgumentException(field + " must be true or false");
        }
        return value.asBoolean();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String decode(String value) {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }
}
