package io.routegateway.state.oauth;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.smallrye.mutiny.Uni;

/**
 * Where the OAuth material of an official credential is written and read back. The access token is
 * the credential's sealed {@code encrypted_secret}, so gateways and recovery-service use it like any
 * secret; the refresh token is sealed in {@code route_credential_oauth} and never leaves
 * state-service. Every method runs inside the caller's transaction on a row it locked.
 */
@ApplicationScoped
public class OAuthStore {

    private final SecretBox secretBox;
    private final StateOutbox outbox;
    private final CredentialEventService events;

    OAuthStore(SecretBox secretBox, StateOutbox outbox, CredentialEventService events) {
        this.secretBox = secretBox;
        this.outbox = outbox;
        this.events = events;
    }

    /**
     * Stores fresh material (an authorization, a pasted credentials file or a refresh): the account is
     * authorized with this access token from now on, the refresher's bookkeeping starts over, and a
     * revoked account is restored — re-authorizing is the manual recovery the permanent markers ask
     * for. Bumps the version and queues the snapshot.
     *
     * @param locked loaded with {@code CredentialRepository.findForUpdate} in this transaction
     * @return the new state version
     */
    public Uni<Long> store(CredentialEntity locked, OAuthMaterial material, Instant now) {
        Uni<Void> restored = AccountStatus.REVOKED.wire().equals(locked.status)
                ? events.applyInTransaction(new CredentialEvent.CredentialRestored(EventIds.next(), locked.id, now))
                        .replaceWithVoid()
                : Uni.createFrom().voidItem();
        return restored.flatMap(ok -> oauthRow(locked.id)).flatMap(existing -> {
            CredentialOAuthEntity oauth = existing != null ? existing : new CredentialOAuthEntity();
            oauth.credentialId = locked.id;
            oauth.sealedRefreshToken = material.hasRefreshToken()
                    ? secretBox.seal(
                            CredentialOAuthEntity.refreshTokenBinding(locked.id, locked.platform),
                            material.refreshToken())
                    : null;
            oauth.tokenIssuedAt = now;
            oauth.refreshDueAt = null;
            oauth.nextAttemptAt = null;
            oauth.refreshFailures = 0;
            oauth.leaseOwner = null;
            oauth.leaseUntil = null;
            oauth.updatedAt = now;

            locked.encryptedSecret = secretBox.seal(locked.secretBinding(), material.accessToken());
            locked.oauthState = AuthState.AUTHORIZED.wire();
            locked.oauthAccessExpiresAt = material.accessExpiresAt();
            locked.oauthAccountId = material.accountId();
            locked.oauthRefreshedAt = now;
            locked.oauthLastRefreshError = null;
            Uni<?> saved = existing != null ? Uni.createFrom().item(oauth) : oauth.persist();
            return saved.flatMap(ok -> outbox.credentialChanged(locked));
        });
    }

    /** The held material in clear: the access token from the credential, the refresh token from its oauth row. */
    public OAuthMaterial held(CredentialEntity row, CredentialOAuthEntity oauth) {
        String access = secretBox.open(row.secretBinding(), row.encryptedSecret);
        String refresh = oauth == null || oauth.sealedRefreshToken == null
                ? null
                : secretBox.open(
                        CredentialOAuthEntity.refreshTokenBinding(row.id, row.platform), oauth.sealedRefreshToken);
        return new OAuthMaterial(access, refresh, row.oauthAccessExpiresAt, row.oauthAccountId);
    }

    /** The oauth row of a credential in the current session; null when it has none. */
    public Uni<CredentialOAuthEntity> oauthRow(String credentialId) {
        return Panache.getSession().flatMap(session -> session.find(CredentialOAuthEntity.class, credentialId));
    }

    /**
     * Makes an OAuth-managed credential an ordinary one (it now holds a static token, becomes an api
     * key, or its material belonged to another platform): the oauth columns are cleared and the
     * refresh token deleted. The caller decides the new secret and bumps the version.
     */
    public Uni<Void> forget(CredentialEntity locked) {
        locked.oauthState = null;
        locked.oauthAccessExpiresAt = null;
        locked.oauthAccountId = null;
        locked.oauthRefreshedAt = null;
        locked.oauthLastRefreshError = null;
        return oauthRow(locked.id)
                .flatMap(oauth -> oauth == null
                        ? Uni.createFrom().voidItem()
                        : oauth.delete().flatMap(ok -> Panache.getSession().flatMap(s -> s.flush())));
    }
}
