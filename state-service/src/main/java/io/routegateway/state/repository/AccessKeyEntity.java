package io.routegateway.state.repository;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code access_keys}. Only the key's SHA-256 hex is stored. */
@Entity
@Table(name = "access_keys")
public class AccessKeyEntity extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

    /** {@code AccessKeys.hash(plaintext)}. */
    @Column(name = "key_hash", nullable = false, unique = true)
    public String keyHash;

    /** The first characters of the key, for display only. */
    @Column(name = "key_prefix")
    public String keyPrefix;

    @Column(nullable = false)
    public boolean enabled = true;

    /** Null = never expires. */
    @Convert(converter = InstantText.class)
    @Column(name = "expires_at")
    public Instant expiresAt;

    /** JSON array of {@code Protocol.wire()}; empty = every protocol. */
    @Column(name = "allowed_protocols", nullable = false)
    public String allowedProtocols = "[]";

    /** JSON array of model names or patterns; empty = every model. */
    @Column(name = "allowed_models", nullable = false)
    public String allowedModels = "[]";

    /** The team owning the key; null = none. */
    @Column(name = "team_id")
    public String teamId;

    /** The key's own limits (route-core {@code Limits}, {@link StateRows#keyLimits}); null = no limit. */
    @Column(name = "rpm_limit")
    public Integer rpmLimit;

    @Column(name = "tpm_limit")
    public Long tpmLimit;

    @Column(name = "max_parallel_requests")
    public Integer maxParallelRequests;

    /** USD. */
    @Column(name = "max_budget", precision = 16, scale = 6)
    public BigDecimal maxBudget;

    /** {@code BudgetDuration.wire()}. */
    @Column(name = "budget_duration")
    public String budgetDuration;

    /** Bumped on every change; the version of the published {@code AccessKeySnapshot}. */
    @Column(nullable = false)
    public long version;

    @Convert(converter = InstantText.class)
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Convert(converter = InstantText.class)
    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
