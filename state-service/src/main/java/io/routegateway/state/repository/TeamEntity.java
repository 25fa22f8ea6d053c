package io.routegateway.state.repository;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A row of {@code teams}: a set of AccessKeys sharing limits and a budget. The limit columns are
 * route-core's {@code Limits}, null = no limit ({@link StateRows#teamLimits}).
 */
@Entity
@Table(name = "teams")
public class TeamEntity extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

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

    /** 1..1000. */
    @Column(nullable = false)
    public int weight = 1;

    /** Bumped on every change; the version of the published {@code TeamSnapshot}. */
    @Column(nullable = false)
    public long version;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
