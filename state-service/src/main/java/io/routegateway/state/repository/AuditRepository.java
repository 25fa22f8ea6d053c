package io.routegateway.state.repository;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;

/** {@code audit_log}: appended by admin writes, read by the audit listing, pruned by retention. */
@ApplicationScoped
public class AuditRepository implements PanacheRepositoryBase<AuditEntity, Long> {}
