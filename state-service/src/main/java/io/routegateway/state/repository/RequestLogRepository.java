package io.routegateway.state.repository;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;

/** {@code request_logs} (read side; the usage consumer inserts with plain SQL). */
@ApplicationScoped
public class RequestLogRepository implements PanacheRepositoryBase<RequestLogEntity, UUID> {}
