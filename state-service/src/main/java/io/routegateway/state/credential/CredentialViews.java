package io.routegateway.state.credential;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.admin.HealthView;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.core.model.Platform;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.recovery.RecoveryConfig;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.StateRows;

/** Rows → admin views; every badge, tag, reason and alias comes from route-core's {@link HealthView}. */
final class CredentialViews {

    private CredentialViews() {}

    static CredentialView credential(
            CredentialEntity row,
            List<CredentialModelEntity> modelRows,
            List<String> groupIds,
            UnaryOperator<String> redact,
            Instant now) {
        JsonNode config = StateRows.configJson(row);
        List<ModelMapping> mappings = ModelMappings.fromConfigJson(config);
        CredentialHealth health = StateRows.health(row, modelRows);
        AccountState account = health.account();
        HealthView.AccountView view = HealthView.of(CredentialKind.fromWire(row.kind), mappings, health, now);
        return new CredentialView(
                row.id,
                row.name,
                row.platform,
                row.kind,
                row.baseUrl,
                row.encryptedSecret != null && !row.encryptedSecret.isEmpty(),
                mappings,
                FailurePolicy.fromConfigJson(config),
                RecoveryConfig.read(config).toJson(),
                CredentialConfig.isValid(row.configJson),
                row.enabled,
                row.archived,
                row.inPool,
                row.priority,
                row.weightMode,
                row.weight,
                row.quotaRemaining,
                groupIds,
                account.status().wire(),
                masked(account, redact),
                view.statusTag().text(),
                view.cooldownBadge(),
                view.unavailableModelsBadge(),
                view.reminders().stream().map(HealthView.Reminder::text).toList(),
                row.stateVersion,
                row.createdAt,
                row.updatedAt);
    }

    /** The account state with its failure texts passed through the credential's redactor. */
    static AccountState masked(AccountState account, UnaryOperator<String> redact) {
        return new AccountState(
                account.status(),
                account.transientFailureCount(),
                account.nextRetryAt(),
                account.cooldownUntil(),
                account.lastFailureKind(),
                redact.apply(account.lastFailureMessage()),
                redact.apply(account.lastFailureResponseJson()),
                account.semanticFailureStreakCount(),
                account.semanticFailureStreakFingerprint());
    }

    /** Every known model of the credential (mapped keys or the platform baseline, then any other row). */
    static List<ModelView> models(
            CredentialEntity row, List<CredentialModelEntity> modelRows, UnaryOperator<String> redact, Instant now) {
        List<ModelMapping> mappings = ModelMappings.fromConfigJson(StateRows.configJson(row));
        CredentialKind kind = CredentialKind.fromWire(row.kind);
        Map<String, ModelState> rows = new HashMap<>();
        for (CredentialModelEntity modelRow : modelRows) {
            rows.put(modelRow.modelKey, StateRows.model(modelRow));
        }
        Map<String, HealthView.UnavailableReason> reasons = new HashMap<>();
        for (HealthView.UnavailableModel unavailable :
                HealthView.unavailableModels(kind, mappings, rows.values(), now)) {
            reasons.put(unavailable.modelKey(), unavailable.reason());
        }
        List<ModelView> out = new ArrayList<>();
        for (HealthView.KnownModel known :
                HealthView.knownModels(Platform.fromWire(row.platform), kind, mappings, rows.values(), now)) {
            ModelState state = rows.get(known.modelKey());
            HealthView.UnavailableReason reason = reasons.get(known.modelKey());
            out.add(new ModelView(
                    known.modelKey(),
                    known.displayName(),
                    known.aliases(),
                    known.mappingRemoved(),
                    known.status().wire(),
                    known.hasRow(),
                    reason == null,
                    reason == null ? null : reason.wire(),
                    state == null ? null : state.cooldownUntil(),
                    known.remainingSeconds(),
                    known.transientFailureCount(),
                    known.semanticFailureStreakCount(),
                    known.lastFailureKind(),
                    redact.apply(known.lastFailureMessage()),
                    known.includedInClearAll()));
        }
        return out;
    }
}
