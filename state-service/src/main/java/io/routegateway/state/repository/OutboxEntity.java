package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A row of {@code state_outbox}: a message for a compacted topic, written in the transaction that
 * changed the state and deleted once the broker acknowledged it, or kept with {@link #failedAt}
 * when it can never be published.
 */
@Entity
@Table(name = "state_outbox")
public class OutboxEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String topic;

    @Column(name = "message_key", nullable = false)
    public String messageKey;

    /** JSON snapshot; null = tombstone (the key was deleted). */
    public String payload;

    @Convert(converter = InstantText.class)
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** When the relay gave up on the row (it can never be published); null while it is pending. */
    @Convert(converter = InstantText.class)
    @Column(name = "failed_at")
    public Instant failedAt;

    /** Why it can never be published; never the payload. */
    public String failure;

    public OutboxEntity() {}

    public OutboxEntity(String topic, String messageKey, String payload, Instant createdAt) {
        this.topic = topic;
        this.messageKey = messageKey;
        this.payload = payload;
        this.createdAt = createdAt;
    }
}
