package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code audit_log}: one admin write, inserted in the write's transaction. */
@Entity
@Table(name = "audit_log")
public class AuditEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "occurred_at", nullable = false)
    public Instant occurredAt;

    @Column(nullable = false)
    public String subject;

    /** {@code Principal.Via.wire()}. */
    @Column(nullable = false)
    public String via;

    @Column(name = "token_id")
    public String tokenId;

    @Column(nullable = false)
    public String method;

    @Column(nullable = false)
    public String path;

    @Column(name = "resource_type", nullable = false)
    public String resourceType;

    @Column(name = "resource_id")
    public String resourceId;

    /** JSON, secrets redacted; null: the resource did not exist before. */
    @Column(name = "before_json")
    public String beforeJson;

    /** JSON, secrets redacted; null: the resource does not exist after (deleted). */
    @Column(name = "after_json")
    public String afterJson;

    @Column(name = "request_id", nullable = false)
    public String requestId;
}
