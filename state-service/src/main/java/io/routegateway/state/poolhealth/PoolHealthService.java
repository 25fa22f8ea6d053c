package io.routegateway.state.poolhealth;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.admin.HealthView;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.pool.SecretRedactor;
import io.routegateway.state.pool.StoredPool;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.StateRows;
import io.smallrye.mutiny.Uni;

/**
 * The Health tab: every active credential with what route-core's {@link HealthView} derives for it
 * ({@link PoolHealthRules}); archived credentials are left out.
 */
@ApplicationScoped
public class PoolHealthService {

    private final PoolReader pool;
    private final SecretRedactor redactor;
    private final Clock clock;

    PoolHealthService(PoolReader pool, SecretRedactor redactor, Clock clock) {
        this.pool = pool;
        this.redactor = redactor;
        this.clock = clock;
    }

    public Uni<PoolHealthView> overview() {
        return pool.read().map(stored -> {
            Instant now = clock.instant();
            List<PoolHealthRules.Account> active = stored.credentials().stream()
                    .filter(row -> !row.archived)
                    .map(row -> account(row, stored))
                    .toList();
            return PoolHealthRules.overview(active, now);
        });
    }

    private PoolHealthRules.Account account(CredentialEntity row, StoredPool stored) {
        return new PoolHealthRules.Account(
                row.id,
                row.name,
                row.platform,
                row.kind,
                row.enabled,
                row.inPool,
                row.priority,
                ModelMappings.fromConfigJson(StateRows.configJson(row)),
                StateRows.health(row, stored.modelsOf(row.id)),
                redactor.forCredential(row));
    }
}
