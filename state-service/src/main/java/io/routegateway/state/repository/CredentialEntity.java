package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import io.routegateway.core.crypto.SecretBox;
import org.hibernate.annotations.DynamicUpdate;

/**
 * A row of {@code route_credentials}: one upstream account, its configuration and its account-level
 * failure state. {@link DynamicUpdate} makes an applied event write only the columns it changed.
 */
@Entity
@Table(name = "route_credentials")
@DynamicUpdate
public class CredentialEntity extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

    /** {@code Platform.wire()}. */
    @Column(nullable = false)
    public String platform;

    /** {@code CredentialKind.wire()}. */
    @Column(nullable = false)
    public String kind;

    @Column(name = "base_url", nullable = false)
    public String baseUrl;

    /**
     * SecretBox-sealed, bound to {@link #secretBinding()} (id, platform, base URL); never the
     * clear-text secret. A change of platform or base URL re-seals it in the same transaction.
     */
    @Column(name = "encrypted_secret", nullable = false)
    public String encryptedSecret;

    /** {@code model_mappings}, {@code failure_policy}, {@code recovery}. */
    @Column(name = "config_json", nullable = false)
    public String configJson = "{}";

    /** {@code AccountStatus.wire()}. */
    @Column(nullable = false)
    public String status = "ok";

    @Column(nullable = false)
    public boolean enabled = true;

    @Column(nullable = false)
    public boolean archived;

    @Column(name = "in_pool", nullable = false)
    public boolean inPool = true;

    @Column(nullable = false)
    public int priority;

    /** {@code WeightMode.wire()}. */
    @Column(name = "weight_mode", nullable = false)
    public String weightMode = "auto";

    @Column(nullable = false)
    public int weight = 50;

    /** Null = unlimited. */
    @Column(name = "quota_remaining")
    public Long quotaRemaining;

    /** What the credential itself allows (route-core {@code CredentialLimits}); null = no limit. */
    @Column(name = "rpm_limit")
    public Integer rpmLimit;

    @Column(name = "max_parallel_requests")
    public Integer maxParallelRequests;

    @Column(name = "transient_failure_count", nullable = false)
    public int transientFailureCount;

    @Convert(converter = InstantText.class)
    @Column(name = "next_retry_at")
    public Instant nextRetryAt;

    @Convert(converter = InstantText.class)
    @Column(name = "cooldown_until")
    public Instant cooldownUntil;

    @Column(name = "last_failure_kind")
    public String lastFailureKind;

    @Column(name = "last_failure_message")
    public String lastFailureMessage;

    @Column(name = "last_failure_response_json")
    public String lastFailureResponseJson;

    @Column(name = "semantic_failure_streak_count", nullable = false)
    public int semanticFailureStreakCount;

    @Column(name = "semantic_failure_streak_fingerprint")
    public String semanticFailureStreakFingerprint;

    /**
     * Partition and offset on {@code route.outcomes} of the last record that changed the health
     * columns; null until one did. Read by the success fast path ({@code SuccessShortcut.isReplay}).
     */
    @Column(name = "outcome_partition")
    public Integer outcomePartition;

    @Column(name = "outcome_offset")
    public Long outcomeOffset;

    /**
     * {@code AuthState.wire()} of an OAuth-managed official credential (its access token is {@link
     * #encryptedSecret}); null for api credentials and official credentials holding a static token.
     * The oauth columns are published in the snapshot's {@code oauth} status; the refresh token is in
     * {@link CredentialOAuthEntity}.
     */
    @Column(name = "oauth_state")
    public String oauthState;

    @Column(name = "oauth_access_expires_at")
    public Instant oauthAccessExpiresAt;

    @Column(name = "oauth_account_id")
    public String oauthAccountId;

    @Column(name = "oauth_refreshed_at")
    public Instant oauthRefreshedAt;

    /** The last refresh failure's screened reason; never a token. */
    @Column(name = "oauth_last_refresh_error")
    public String oauthLastRefreshError;

    /** Bumped on every change; the version of the published {@code CredentialSnapshot}. */
    @Column(name = "state_version", nullable = false)
    public long stateVersion;

    @Convert(converter = InstantText.class)
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Convert(converter = InstantText.class)
    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** What {@link #encryptedSecret} is sealed to, as the gateway rebuilds it from the snapshot. */
    public SecretBox.Binding secretBinding() {
        return new SecretBox.Binding(id, platform, baseUrl);
    }
}
