package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A row of {@code route_groups}. */
@Entity
@Table(name = "route_groups")
public class GroupEntity extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

    @Column(nullable = false)
    public boolean enabled = true;

    /** {@code WeightMode.wire()}. */
    @Column(name = "weight_mode", nullable = false)
    public String weightMode = "auto";

    @Column(nullable = false)
    public int weight = 100;

    /** JSON array of model names; empty = every model its credentials serve. */
    @Column(name = "exposed_models", nullable = false)
    public String exposedModels = "[]";

    @Column(name = "affinity_enabled", nullable = false)
    public boolean affinityEnabled;

    /** {@code BridgePolicy.wire()}. */
    @Column(nullable = false)
    public String bridging = "native_first";

    /** Bumped on every change; the version of the published {@code GroupSnapshot}. */
    @Column(nullable = false)
    public long version;

    @Convert(converter = InstantText.class)
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Convert(converter = InstantText.class)
    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
