package io.routegateway.state.poolhealth;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.admin.HealthView;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.pool.SecretRedactor;
import io.routegateway.state.pool.StoredPool;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.StateRows;
import io.smallrye.mutiny.Uni;

/** The Health tab: every active credential with what route-core's {@link HealthView} derives for it. */
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
            List<PoolHealthView.CredentialHealthView> items = new ArrayList<>();
            Map<String, Integer> byStatus = new TreeMap<>();
            for (AccountStatus status : AccountStatus.values()) {
                byStatus.put(status.wire(), 0);
            }
            int cooling = 0;
            int failing = 0;
            int withUnavailable = 0;
            int disabled = 0;
            List<CredentialEntity> active = stored.credentials().stream()
                    .filter(row -> !row.archived)
                    .sorted(Comparator.comparingInt((CredentialEntity row) -> row.priority)
                            .thenComparing(row -> row.id))
                    .toList();
            for (CredentialEntity row : active) {
                PoolHealthView.CredentialHealthView item = item(row, stored, redactor.forCredential(row), now);
                items.add(item);
                byStatus.merge(item.status(), 1, Integer::sum);
                cooling += item.cooldownBadge() == null ? 0 : 1;
                failing += item.failureCount() > 0 ? 1 : 0;
                withUnavailable += item.unavailableModelsBadge() == null ? 0 : 1;
                disabled += row.enabled ? 0 : 1;
            }
            return new PoolHealthView(now, items.size(), byStatus, cooling, failing, withUnavailable, disabled, items);
        });
    }

    private static PoolHealthView.CredentialHealthView item(
            CredentialEntity row, StoredPool stored, UnaryOperator<String> redact, Instant now) {
        CredentialHealth health = StateRows.health(row, stored.modelsOf(row.id));
        HealthView.AccountView view = HealthView.of(
                CredentialKind.fromWire(row.kind),
                ModelMappings.fromConfigJson(StateRows.configJson(row)),
                health,
                now);
        OptionalLong cooldown = HealthView.accountCooldownSeconds(health.account(), now);
        return new PoolHealthView.CredentialHealthView(
                row.id,
                row.name,
                row.platform,
                row.kind,
                row.enabled,
                row.inPool,
                health.account().status().wire(),
                view.statusTag().text(),
                view.statusTag().failureCount(),
                view.cooldownBadge(),
                cooldown.isPresent() ? cooldown.getAsLong() : null,
                cooldown.isPresent() ? health.account().coolingUntil() : null,
                view.unavailableModelsBadge(),
                view.unavailableModels().stream()
                        .map(model -> new PoolHealthView.UnavailableModelView(
                                model.modelKey(),
                                model.displayName(),
                                model.aliases(),
                                model.mappingRemoved(),
                                model.reason().wire(),
                                model.remainingSeconds(),
                                redact.apply(model.lastFailureMessage())))
                        .toList(),
                view.reminders().stream()
                        .map(reminder -> new PoolHealthView.ReminderView(
                                reminder.name().toLowerCase(Locale.ROOT), reminder.text()))
                        .toList(),
                health.account().lastFailureKind(),
                redact.apply(health.account().lastFailureMessage()));
    }
}
