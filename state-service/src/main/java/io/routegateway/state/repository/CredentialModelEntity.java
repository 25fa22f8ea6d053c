package io.routegateway.state.repository;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import org.hibernate.annotations.DynamicUpdate;

/** A row of {@code route_credential_models}: one (account, model key) pair that failed or was paused. */
@Entity
@Table(name = "route_credential_models")
@IdClass(CredentialModelEntity.Key.class)
@DynamicUpdate
public class CredentialModelEntity extends PanacheEntityBase {

    @Id
    @Column(name = "route_credential_id")
    public String routeCredentialId;

    @Id
    @Column(name = "model_key")
    public String modelKey;

    /** {@code ModelStatus.wire()}. */
    @Column(nullable = false)
    public String status = "ok";

    @Column(name = "transient_failure_count", nullable = false)
    public int transientFailureCount;

    @Convert(converter = InstantText.class)
    @Column(name = "cooldown_until")
    public Instant cooldownUntil;

    @Column(name = "semantic_failure_streak_count", nullable = false)
    public int semanticFailureStreakCount;

    @Column(name = "semantic_failure_streak_fingerprint")
    public String semanticFailureStreakFingerprint;

    @Column(name = "last_failure_kind")
    public String lastFailureKind;

    @Column(name = "last_failure_message")
    public String lastFailureMessage;

    @Column(name = "last_failure_response_json")
    public String lastFailureResponseJson;

    @Convert(converter = InstantText.class)
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Convert(converter = InstantText.class)
    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The composite primary key. */
    public static class Key implements Serializable {

        public String routeCredentialId;
        public String modelKey;

        public Key() {}

        public Key(String routeCredentialId, String modelKey) {
            this.routeCredentialId = routeCredentialId;
            this.modelKey = modelKey;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && Objects.equals(routeCredentialId, key.routeCredentialId)
                    && Objects.equals(modelKey, key.modelKey);
        }

        @Override
        public int hashCode() {
            return Objects.hash(routeCredentialId, modelKey);
        }
    }
}
