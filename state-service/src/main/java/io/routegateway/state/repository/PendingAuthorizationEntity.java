package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.routegateway.core.crypto.SecretBox;

/**
 * A row of {@code route_oauth_pending_authorizations}: a started authorization-code flow, kept until
 * its state is used (then deleted) or it expires.
 */
@Entity
@Table(name = "route_oauth_pending_authorizations")
public class PendingAuthorizationEntity extends PanacheEntityBase {

    /** The base-URL slot of the code verifier's binding. */
    public static final String VERIFIER_SLOT = "oauth:code-verifier";

    @Id
    public String state;

    @Column(name = "credential_id", nullable = false)
    public String credentialId;

    /** SecretBox-sealed under {@link #verifierBinding(String, String)}. */
    @Column(name = "sealed_code_verifier", nullable = false)
    public String sealedCodeVerifier;

    @Column(name = "redirect_uri", nullable = false)
    public String redirectUri;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "expires_at", nullable = false)
    public Instant expiresAt;

    public static SecretBox.Binding verifierBinding(String credentialId, String platform) {
        return new SecretBox.Binding(credentialId, platform, VERIFIER_SLOT);
    }
}
