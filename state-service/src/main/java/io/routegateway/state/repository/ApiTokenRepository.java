package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/** {@code api_tokens}. */
@ApplicationScoped
public class ApiTokenRepository implements PanacheRepositoryBase<ApiTokenEntity, String> {

    public Uni<ApiTokenEntity> findByHash(String tokenHash) {
        return find("tokenHash", tokenHash).firstResult();
    }

    /**
     * Sets {@code last_used_at} to {@code now} unless it is already later than {@code notBefore}: at
     * most one write a minute per token, however busy.
     */
    public Uni<Integer> touch(String id, Instant now, Instant notBefore) {
        return update("lastUsedAt = ?1 where id = ?2 and (lastUsedAt is null or lastUsedAt < ?3)", now, id, notBefore);
    }
}
