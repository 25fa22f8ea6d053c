package io.routegateway.core.oauth;

import java.time.Instant;

/**
 * The OAuth material of one official credential in clear text, as state-service receives it from a
 * token endpoint or an onboarding paste, before sealing. Never logged: {@link #toString()} names
 * only whether each token is present.
 *
 * @param accessToken required, non-blank
 * @param refreshToken may be null (the credential then cannot refresh and expires with its token)
 * @param accessExpiresAt may be null when the platform did not say
 * @param accountId the platform account/organisation id, may be null
 */
public record OAuthMaterial(String accessToken, String refreshToken, Instant accessExpiresAt, String accountId) {

    public OAuthMaterial {
        if (accessToken == null || accessToken.isBlank()) {
            throw new IllegalArgumentException("access token is required");
        }
        if (refreshToken != null && refreshToken.isBlank()) {
            refreshToken = null;
        }
        if (accountId != null && accountId.isBlank()) {
            accountId = null;
        }
    }

    public boolean hasRefreshToken() {
        return refreshToken != null;
    }

    /**
     * This material after a refresh answered {@code refreshed}: a platform that does not rotate
     * refresh tokens (or omits the account id) keeps the ones held before.
     */
    public static OAuthMaterial merge(OAuthMaterial before, OAuthMaterial refreshed) {
        return new OAuthMaterial(
                refreshed.accessToken,
                refreshed.refreshToken != null ? refreshed.refreshToken : before.refreshToken,
                refreshed.accessExpiresAt,
                refreshed.accountId != null ? refreshed.accountId : before.accountId);
    }

    @Override
    public String toString() {
        return "OAuthMaterial[accessToken=" + (accessToken == null ? "none" : "***")
                + ", refreshToken=" + (refreshToken == null ? "none" : "***")
                + ", accessExpiresAt=" + accessExpiresAt
                + ", accountId=" + accountId + "]";
    }
}
