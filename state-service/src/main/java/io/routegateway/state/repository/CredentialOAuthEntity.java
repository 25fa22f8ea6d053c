package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.routegateway.core.crypto.SecretBox;
import org.hibernate.annotations.DynamicUpdate;

/**
 * A row of {@code route_credential_oauth}: the refresh token of an OAuth-managed official credential
 * and the refresher's bookkeeping. Never published and never in an admin answer.
 */
@Entity
@Table(name = "route_credential_oauth")
@DynamicUpdate
public class CredentialOAuthEntity extends PanacheEntityBase {

    /** The base-URL slot of the refresh token's binding: it does not move with the base URL. */
    public static final String REFRESH_TOKEN_SLOT = "oauth:refresh-token";

    @Id
    @Column(name = "credential_id")
    public String credentialId;

    /** SecretBox-sealed under {@link #refreshTokenBinding(String)}; null when the platform gave none. */
    @Column(name = "sealed_refresh_token")
    public String sealedRefreshToken;

    /** When the current access token was stored; a 401 that occurred after it asks for a refresh. */
    @Column(name = "token_issued_at", nullable = false)
    public Instant tokenIssuedAt;

    /** Set by a 401 about the current token: refresh at or after this instant whatever the expiry. */
    @Column(name = "refresh_due_at")
    public Instant refreshDueAt;

    /** After a transient refresh failure: no new attempt before this instant. */
    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;

    @Column(name = "refresh_failures", nullable = false)
    public int refreshFailures;

    /** The single flight: only this owner may call the token endpoint until {@link #leaseUntil}. */
    @Column(name = "lease_owner")
    public String leaseOwner;

    @Column(name = "lease_until")
    public Instant leaseUntil;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** What the refresh token is sealed to: the credential and platform, not the base URL. */
    public static SecretBox.Binding refreshTokenBinding(String credentialId, String platform) {
        return new SecretBox.Binding(credentialId, platform, REFRESH_TOKEN_SLOT);
    }
}
