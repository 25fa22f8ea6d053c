package io.routegateway.state.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.CredentialFileImport;
import io.routegateway.core.oauth.OAuthCodes;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.oauth.Pkce;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.text.StorableText;

/**
 * The decisions of onboarding an official account, without I/O: which body form was sent and the
 * material it holds, the start of an authorization-code flow, whether a returning state may be
 * used, and the auth view. {@link OAuthAdminService} only reads, locks, calls the token endpoint
 * and stores. Every refusal is a {@link ValidationException} with an {@link OAuthCodes} code.
 */
public final class OAuthAdminRules {

    /** How long a started authorization may be completed. */
    public static final Duration PENDING_TTL = Duration.ofMinutes(10);

    /** Longest last-refresh error shown. */
    public static final int MAX_ERROR_CHARS = 500;

    /** The token fields of the explicit form. */
    static final List<String> TOKEN_FIELDS = List.of("access_token", "refresh_token", "expires_at", "account_id");

    private OAuthAdminRules() {}

    /** Only official credentials hold OAuth material. */
    public static void requireOfficial(CredentialKind kind) {
        if (kind != CredentialKind.OFFICIAL) {
            throw new ValidationException(
                    OAuthCodes.NOT_OFFICIAL, "only official credentials are authorized with OAuth; this is an api key");
        }
    }

    /**
     * The material of {@code PUT …/oauth}: {@code {"credentials_json": "<the file, pasted>"}} (the
     * file's JSON object itself is taken too), or the token fields {@code access_token}, {@code
     * refresh_token}, {@code expires_at}, {@code account_id}; never both.
     */
    public static OAuthMaterial material(Platform platform, CredentialKind kind, JsonNode body, Instant now) {
        requireOfficial(kind);
        if (body == null || !body.isObject()) {
            throw new ValidationException(OAuthCodes.BODY, "the body must be a JSON object");
        }
        ObjectNode object = (ObjectNode) body;
        boolean file = object.has("credentials_json");
        boolean fields = TOKEN_FIELDS.stream().anyMatch(object::has);
        if (file && fields) {
            throw new ValidationException(
                    OAuthCodes.BODY, "send either credentials_json or the token fields (access_token, …), not both");
        }
        if (file) {
            JsonNode pasted = object.get("credentials_json");
            String text;
            if (pasted.isTextual()) {
                text = pasted.asText();
            } else if (pasted.isObject()) {
                text = Json.write(pasted);
            } else {
                throw new ValidationException(
                        OAuthCodes.CREDENTIALS_JSON,
                        "credentials_json must be the file's text (a string) or its object");
            }
            return CredentialFileImport.fromCredentialsJson(platform, text, now);
        }
        if (fields) {
            return CredentialFileImport.fromFields(object, now);
        }
        throw new ValidationException(
                OAuthCodes.BODY,
                "send credentials_json (the file the platform's CLI stores) or access_token and refresh_token");
    }

    /**
     * Where the flow of one platform goes, from {@code route.oauth.<platform>.*}.
     *
     * @param authorizeUrl null when not configured
     * @param clientId null when not configured
     * @param redirectUri the default redirect URI; null when not configured
     * @param tokenEndpointConfigured whether a token URL is set (the code cannot be exchanged otherwise)
     */
    public record FlowSettings(
            String authorizeUrl,
            String clientId,
            String redirectUri,
            List<String> scopes,
            Map<String, String> extraParameters,
            boolean tokenEndpointConfigured) {}

    /**
     * A started authorization: the state and verifier to keep (the verifier sealed), and what the
     * answer shows.
     */
    public record Start(
            String state,
            String verifier,
            String redirectUri,
            String authorizeUrl,
            Instant createdAt,
            Instant expiresAt) {

        /** Never prints the verifier. */
        @Override
        public String toString() {
            return "Start[state=" + state + ", verifier=***, redirectUri=" + redirectUri + ", expiresAt=" + expiresAt
                    + "]";
        }
    }

    /**
     * The start of {@code POST …/oauth/authorize}: {@code {"redirect_uri"?}} (the configured one
     * when absent).
     *
     * @param verifierBytes {@link Pkce#VERIFIER_BYTES} random bytes
     * @param stateBytes {@link Pkce#STATE_BYTES} random bytes
     */
    public static Start start(
            Platform platform,
            CredentialKind kind,
            FlowSettings settings,
            JsonNode body,
            byte[] verifierBytes,
            byte[] stateBytes,
            Instant now) {
        requireOfficial(kind);
        if (settings == null
                || blank(settings.authorizeUrl())
                || blank(settings.clientId())
                || !settings.tokenEndpointConfigured()) {
            throw new ValidationException(
                    OAuthCodes.NOT_CONFIGURED,
                    "no authorization flow is configured for " + platform.wire() + " (route.oauth." + platform.wire()
                            + ".authorize-url, .token-url and .client-id); paste the credentials file instead");
        }
        String redirect = settings.redirectUri();
        if (body != null && !body.isNull()) {
            if (!body.isObject()) {
                throw new ValidationException(OAuthCodes.BODY, "the body must be a JSON object");
            }
            JsonNode sent = body.get("redirect_uri");
            if (sent != null && !sent.isNull()) {
                if (!sent.isTextual()) {
                    throw new ValidationException(OAuthCodes.REDIRECT_URI, "redirect_uri must be a string");
                }
                redirect = sent.asText();
            }
        }
        if (redirect == null) {
            throw new ValidationException(
                    OAuthCodes.REDIRECT_URI,
                    "send redirect_uri (no route.oauth." + platform.wire() + ".redirect-uri is configured)");
        }
        redirect = Pkce.redirectUri(redirect);
        String verifier = Pkce.verifier(verifierBytes);
        String state = Pkce.state(stateBytes);
        String url = Pkce.authorizeUrl(
                settings.authorizeUrl(),
                settings.clientId(),
                redirect,
                settings.scopes(),
                Pkce.challenge(verifier),
                state,
                settings.extraParameters());
        return new Start(state, verifier, redirect, url, now, now.plus(PENDING_TTL));
    }

    /**
     * What {@code POST …/oauth/callback} names: {@code {"callback_url"}} or {@code {"code","state"}}
     * (a Claude {@code code#state} alone too), never both.
     */
    public static Pkce.Callback callback(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ValidationException(OAuthCodes.BODY, "the body must be a JSON object");
        }
        JsonNode url = body.get("callback_url");
        JsonNode code = body.get("code");
        JsonNode state = body.get("state");
        boolean hasUrl = url != null && !url.isNull();
        boolean hasCode = code != null && !code.isNull();
        if (hasUrl && hasCode) {
            throw new ValidationException(OAuthCodes.BODY, "send either callback_url or code and state, not both");
        }
        if (hasUrl) {
            if (!url.isTextual()) {
                throw new ValidationException(OAuthCodes.CALLBACK, "callback_url must be a string");
            }
            return Pkce.parseCallbackUrl(url.asText());
        }
        if (!hasCode) {
            throw new ValidationException(
                    OAuthCodes.BODY, "send callback_url (the address the browser landed on) or code and state");
        }
        if (!code.isTextual()) {
            throw new ValidationException(OAuthCodes.CALLBACK, "code must be a string");
        }
        if (state != null && !state.isNull() && !state.isTextual()) {
            throw new ValidationException(OAuthCodes.STATE, "state must be a string");
        }
        return Pkce.callback(code.asText(), state == null || state.isNull() ? null : state.asText());
    }

    /**
     * A stored pending authorization, as far as the check needs it.
     *
     * @param credentialId the credential it was started for
     */
    public record Pending(String credentialId, Instant expiresAt) {}

    /**
     * Whether the state may complete the authorization of {@code credentialId}: it must exist (a
     * used state is deleted, so a replay is unknown), belong to this credential and be unexpired.
     *
     * @param pending null when no row holds the state
     */
    public static void requireUsable(Pending pending, String credentialId, Instant now) {
        if (pending == null) {
            throw new ValidationException(
                    OAuthCodes.STATE, "the state is unknown or was already used; start the authorization again");
        }
        if (!pending.credentialId().equals(credentialId)) {
            throw new ValidationException(OAuthCodes.STATE, "the state was not issued for this credential");
        }
        if (!now.isBefore(pending.expiresAt())) {
            throw new ValidationException(
                    OAuthCodes.STATE,
                    "the authorization expired (" + PENDING_TTL.toMinutes() + " minutes); start it again");
        }
    }

    /**
     * The auth view of an official credential.
     *
     * @param status the stored OAuth status; null for an official credential holding a static token
     *     (then there is no auth view)
     * @param lastRefreshError stored text, passed through {@code redact} (the credential's secret masked)
     */
    public static OAuthAdminView view(OAuthStatus status, String lastRefreshError, UnaryOperator<String> redact) {
        if (status == null) {
            return null;
        }
        String error = lastRefreshError == null
                ? null
                : StorableText.truncate(StorableText.sanitise(redact.apply(lastRefreshError)), MAX_ERROR_CHARS);
        return new OAuthAdminView(
                status.state().wire(), status.accessExpiresAt(), status.accountId(), status.refreshedAt(), error);
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
