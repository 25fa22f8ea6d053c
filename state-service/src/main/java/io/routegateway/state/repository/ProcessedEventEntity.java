package io.routegateway.state.repository;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code processed_events}: this event id was applied; a redelivery changes nothing. */
@Entity
@Table(name = "processed_events")
public class ProcessedEventEntity extends PanacheEntityBase {

    @Id
    @Column(name = "event_id")
    public UUID eventId;

    @Column(name = "credential_id", nullable = false)
    public String credentialId;

    @Column(name = "event_type", nullable = false)
    public String eventType;

    @Convert(converter = InstantText.class)
    @Column(name = "applied_at", nullable = false)
    public Instant appliedAt;

    public ProcessedEventEntity() {}

    public ProcessedEventEntity(UUID eventId, String credentialId, String eventType, Instant appliedAt) {
        this.eventId = eventId;
        this.credentialId = credentialId;
        this.eventType = eventType;
        this.appliedAt = appliedAt;
    }
}
