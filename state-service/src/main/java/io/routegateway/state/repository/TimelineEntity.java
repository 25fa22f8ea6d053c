package io.routegateway.state.repository;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code credential_health_timeline}: one {@code HealthChange} of one applied event. */
@Entity
@Table(name = "credential_health_timeline")
public class TimelineEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "credential_id", nullable = false)
    public String credentialId;

    /** Null = the account itself. */
    @Column(name = "model_key")
    public String modelKey;

    @Convert(converter = InstantText.class)
    @Column(name = "occurred_at", nullable = false)
    public Instant occurredAt;

    @Column(name = "from_condition", nullable = false)
    public String fromCondition;

    @Column(name = "to_condition", nullable = false)
    public String toCondition;

    @Column(nullable = false)
    public String cause;

    @Convert(converter = InstantText.class)
    public Instant until;

    public String detail;

    @Column(name = "event_id")
    public UUID eventId;
}
