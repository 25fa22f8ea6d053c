package io.routegateway.core.oauth;

import java.time.Instant;

/**
 * The non-secret OAuth status of an official credential, carried in the credential snapshot as
 * {@code oauth} (null for api credentials and for official credentials holding a static token).
 *
 * @param state never null
 * @param accessExpiresAt when the current access token expires, null when unknown or none
 * @param accountId the platform account/organisation id requests must name (Codex: {@code
 *     chatgpt-account-id}), may be null
 * @param refreshedAt when the access token was last stored (authorization or refresh), may be null
 */
public record OAuthStatus(AuthState state, Instant accessExpiresAt, String accountId, Instant refreshedAt) {

    public OAuthStatus {
        if (state == null) {
            throw new IllegalArgumentException("state is required");
        }
    }

    /** An official credential created without OAuth material. */
    public static OAuthStatus unauthorized() {
        return new OAuthStatus(AuthState.UNAUTHORIZED, null, null, null);
    }

    /** Whether routing may use the credential's access token. */
    public boolean usable() {
        return state == AuthState.AUTHORIZED;
    }

    public OAuthStatus withState(AuthState next) {
        return new OAuthStatus(next, accessExpiresAt, accountId, refreshedAt);
    }
}
