package io.routegateway.state.oauth;

import java.time.Instant;

/**
 * The authorization of an official credential as the admin API shows it (in {@code GET
 * …/oauth} and as the credential view's {@code oauth}). Never a token, sealed or not.
 *
 * @param state {@code authorized}, {@code expired} or {@code unauthorized}
 * @param accessExpiresAt when the current access token expires; null when unknown or none
 * @param accountId the platform account id requests name (Codex: {@code chatgpt-account-id})
 * @param refreshedAt when the access token was last stored (authorization or refresh)
 * @param lastRefreshError why the last refresh failed (the credential's tokens masked); null after a success
 */
public record OAuthAdminView(
        String state, Instant accessExpiresAt, String accountId, Instant refreshedAt, String lastRefreshError) {}
