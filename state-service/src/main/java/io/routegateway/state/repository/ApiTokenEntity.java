package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code api_tokens}: a named token for automation; only its SHA-256 is stored. */
@Entity
@Table(name = "api_tokens")
public class ApiTokenEntity extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

    /** {@code Role.wire()}. */
    @Column(nullable = false)
    public String role;

    /** The team of a team role; null otherwise. */
    @Column(name = "team_id")
    public String teamId;

    /** Hex SHA-256 of the token. */
    @Column(name = "token_hash", nullable = false)
    public String tokenHash;

    /** The token's first characters, shown in listings. */
    @Column(name = "token_prefix", nullable = false)
    public String tokenPrefix;

    /** The subject that created it. */
    @Column(name = "created_by", nullable = false)
    public String createdBy;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** Null: never expires. */
    @Column(name = "expires_at")
    public Instant expiresAt;

    @Column(name = "last_used_at")
    public Instant lastUsedAt;
}
