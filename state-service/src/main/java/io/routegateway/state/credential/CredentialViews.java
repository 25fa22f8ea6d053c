package io.routegateway.state.credential;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.admin.HealthView;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.recovery.RecoveryConfig;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.state.oauth.OAuthAdminRules;
import io.routegateway.state.oauth.OAuthAdminView;

/**
 * A credential's stored columns and health → admin views, without I/O; every badge, tag, reason and
 * alias comes from route-core's {@link HealthView}. The service reads the rows and passes their values.
 */
final class CredentialViews {

    private CredentialViews() {}

    /** The credential's own columns as stored ({@code configJson} as text, read again here). */
    record Row(
            String id,
            String name,
            String platform,
            String kind,
            String baseUrl,
            boolean hasSecret,
            String configJson,
            boolean enabled,
            boolean archived,
            boolean inPool,
            int priority,
            String weightMode,
            int weight,
            Long quotaRemaining,
            CredentialLimits limits,
            long stateVersion,
            Instant createdAt,
            Instant updatedAt,
            OAuthStatus oauth,
            String oauthLastRefreshError) {}

    /** @param config the parsed {@code config_json} (anything unreadable reads as empty) */
    static CredentialView credential(
            Row row,
            JsonNode config,
            CredentialHealth health,
            List<String> groupIds,
            UnaryOperator<String> redact,
            Instant now) {
        List<ModelMapping> mappings = ModelMappings.fromConfigJson(config);
        AccountState account = health.account();
        HealthView.AccountView view = HealthView.of(CredentialKind.fromWire(row.kind()), mappings, health, now);
        return new CredentialView(
                row.id(),
                row.name(),
                row.platform(),
                row.kind(),
                row.baseUrl(),
                row.hasSecret(),
                mappings,
                FailurePolicy.fromConfigJson(config),
                RecoveryConfig.read(config).toJson(),
                CredentialConfig.isValid(row.configJson()),
                row.enabled(),
                row.archived(),
                row.inPool(),
                row.priority(),
                row.weightMode(),
                row.weight(),
                row.quotaRemaining(),
                row.limits(),
                CredentialConfig.upstreamHeaders(config),
                groupIds,
                account.status().wire(),
                masked(account, redact),
                view.statusTag().text(),
                view.cooldownBadge(),
                view.unavailableModelsBadge(),
                view.reminders().stream().map(HealthView.Reminder::text).toList(),
                row.stateVersion(),
                row.createdAt(),
                row.updatedAt(),
                oauth(row, redact));
    }

    /**
     * The auth view of an OAuth-managed official credential; an official credential holding a static
     * token, and every api key, has none.
     */
    static OAuthAdminView oauth(Row row, UnaryOperator<String> redact) {
        return OAuthAdminRules.view(row.oauth(), row.oauthLastRefreshError(), redact);
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

    /**
     * Every known model of the credential (mapped keys or the platform baseline, then any other row).
     *
     * @param config the parsed {@code config_json}
     * @param modelRows the credential's model rows
     */
    static List<ModelView> models(
            Platform platform,
            CredentialKind kind,
            JsonNode config,
            List<ModelState> modelRows,
            UnaryOperator<String> redact,
            Instant now) {
        List<ModelMapping> mappings = ModelMappings.fromConfigJson(config);
        Map<String, ModelState> rows = new HashMap<>();
        for (ModelState modelRow : modelRows) {
            rows.put(modelRow.modelKey(), modelRow);
        }
        Map<String, HealthView.UnavailableReason> reasons = new HashMap<>();
        for (HealthView.UnavailableModel unavailable :
                HealthView.unavailableModels(kind, mappings, rows.values(), now)) {
            reasons.put(unavailable.modelKey(), unavailable.reason());
        }
        List<ModelView> out = new ArrayList<>();
        for (HealthView.KnownModel known : HealthView.knownModels(platform, kind, mappings, rows.values(), now)) {
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
