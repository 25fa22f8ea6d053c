package io.routegateway.state.poolhealth;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

import io.routegateway.core.admin.HealthView;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;

/**
 * The Health tab without I/O: every credential's item as route-core's {@link HealthView} derives it
 * (status tag, badges, unavailable models, reminders; failure messages through the credential's
 * redactor), in pool order (priority, then id), and the counts over them. {@link PoolHealthService}
 * reads the pool, leaves archived credentials out and passes the time.
 */
public final class PoolHealthRules {

    private PoolHealthRules() {}

    /**
     * One credential as the overview reads it.
     *
     * @param kind the credential kind's wire name
     * @param mappings the credential's model mappings
     * @param redact removes the credential's secret from a failure message
     */
    public record Account(
            String id,
            String name,
            String platform,
            String kind,
            boolean enabled,
            boolean inPool,
            int priority,
            List<ModelMapping> mappings,
            CredentialHealth health,
            UnaryOperator<String> redact) {}

    /** The overview of {@code accounts}: items sorted by priority then id, and the counts. */
    public static PoolHealthView overview(List<Account> accounts, Instant now) {
        List<PoolHealthView.CredentialHealthView> items = new ArrayList<>();
        Map<String, Integer> byStatus = new TreeMap<>();
        for (AccountStatus status : AccountStatus.values()) {
            byStatus.put(status.wire(), 0);
        }
        int cooling = 0;
        int failing = 0;
        int withUnavailable = 0;
        int disabled = 0;
        List<Account> sorted = accounts.stream()
                .sorted(Comparator.comparingInt(Account::priority).thenComparing(Account::id))
                .toList();
        for (Account account : sorted) {
            PoolHealthView.CredentialHealthView item = item(account, now);
            items.add(item);
            byStatus.merge(item.status(), 1, Integer::sum);
            cooling += item.cooldownBadge() == null ? 0 : 1;
            failing += item.failureCount() > 0 ? 1 : 0;
            withUnavailable += item.unavailableModelsBadge() == null ? 0 : 1;
            disabled += account.enabled() ? 0 : 1;
        }
        return new PoolHealthView(now, items.size(), byStatus, cooling, failing, withUnavailable, disabled, items);
    }

    /** One credential's item. */
    public static PoolHealthView.CredentialHealthView item(Account account, Instant now) {
        CredentialHealth health = account.health();
        UnaryOperator<String> redact = account.redact();
        HealthView.AccountView view =
                HealthView.of(CredentialKind.fromWire(account.kind()), account.mappings(), health, now);
        OptionalLong cooldown = HealthView.accountCooldownSeconds(health.account(), now);
        return new PoolHealthView.CredentialHealthView(
                account.id(),
                account.name(),
                account.platform(),
                account.kind(),
                account.enabled(),
                account.inPool(),
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
