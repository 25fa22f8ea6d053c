package io.routegateway.state.repository;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.headers.CredentialHeaders;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMappings;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.CredentialProfile;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;

/**
 * The one place where rows become route-core records and back: account and model state, the
 * transition profile, and the three snapshots of the compacted topics. Reads of stored JSON are
 * forgiving (a hand-edited config falls back to defaults instead of breaking event application).
 */
public final class StateRows {

    private StateRows() {}

    public static AccountState account(CredentialEntity row) {
        return new AccountState(
                AccountStatus.fromWire(row.status),
                row.transientFailureCount,
                row.nextRetryAt,
                row.cooldownUntil,
                row.lastFailureKind,
                row.lastFailureMessage,
                row.lastFailureResponseJson,
                row.semanticFailureStreakCount,
                row.semanticFailureStreakFingerprint);
    }

    /** Copies the account state onto the row; unchanged columns stay untouched (dynamic update). */
    public static void writeAccount(CredentialEntity row, AccountState account) {
        row.status = account.status().wire();
        row.transientFailureCount = account.transientFailureCount();
        row.nextRetryAt = account.nextRetryAt();
        row.cooldownUntil = account.cooldownUntil();
        row.lastFailureKind = account.lastFailureKind();
        row.lastFailureMessage = account.lastFailureMessage();
        row.lastFailureResponseJson = account.lastFailureResponseJson();
        row.semanticFailureStreakCount = account.semanticFailureStreakCount();
        row.semanticFailureStreakFingerprint = account.semanticFailureStreakFingerprint();
    }

    public static ModelState model(CredentialModelEntity row) {
        return new ModelState(
                row.modelKey,
                ModelStatus.fromWire(row.status),
                row.transientFailureCount,
                row.cooldownUntil,
                row.semanticFailureStreakCount,
                row.semanticFailureStreakFingerprint,
                row.lastFailureKind,
                row.lastFailureMessage,
                row.lastFailureResponseJson,
                row.createdAt,
                row.updatedAt);
    }

    public static CredentialModelEntity newModelRow(String credentialId, ModelState model) {
        CredentialModelEntity row = new CredentialModelEntity();
        row.routeCredentialId = credentialId;
        row.modelKey = model.modelKey();
        writeModel(row, model);
        return row;
    }

    public static void writeModel(CredentialModelEntity row, ModelState model) {
        row.status = model.status().wire();
        row.transientFailureCount = model.transientFailureCount();
        row.cooldownUntil = model.cooldownUntil();
        row.semanticFailureStreakCount = model.semanticFailureStreakCount();
        row.semanticFailureStreakFingerprint = model.semanticFailureStreakFingerprint();
        row.lastFailureKind = model.lastFailureKind();
        row.lastFailureMessage = model.lastFailureMessage();
        row.lastFailureResponseJson = model.lastFailureResponseJson();
        row.createdAt = model.createdAt();
        row.updatedAt = model.updatedAt();
    }

    public static CredentialHealth health(CredentialEntity row, List<CredentialModelEntity> modelRows) {
        Map<String, ModelState> models = new TreeMap<>();
        for (CredentialModelEntity modelRow : modelRows) {
            models.put(modelRow.modelKey, model(modelRow));
        }
        return new CredentialHealth(account(row), models);
    }

    /** What the transition reads: mappings and failure policy from config_json, plus the blacklist setting. */
    public static CredentialProfile profile(CredentialEntity row, int blacklistThreshold) {
        JsonNode config = configJson(row);
        return new CredentialProfile(
                Platform.fromWire(row.platform),
                CredentialKind.fromWire(row.kind),
                ModelMappings.fromConfigJson(config),
                FailurePolicy.fromConfigJson(config),
                blacklistThreshold);
    }

    /**
     * The credential as the state topic carries it, caused by the outcome sent at {@code
     * outcomeSentAt} (null: none), with its model rows {@linkplain
     * ModelState#withoutFailureTexts() without their failure texts}, so a snapshot stays small however
     * many of its models fail.
     */
    public static CredentialSnapshot publishedSnapshot(
            CredentialEntity row,
            CredentialHealth health,
            List<String> groupIds,
            Instant publishedAt,
            Instant outcomeSentAt) {
        Map<String, ModelState> models = new TreeMap<>();
        for (ModelState model : health.models().values()) {
            models.put(model.modelKey(), model.withoutFailureTexts());
        }
        return snapshot(row, new CredentialHealth(health.account(), models), groupIds, publishedAt, outcomeSentAt);
    }

    /** The outcome record that last changed the row ({@code route_credentials.outcome_*}); null: none. */
    public static OutcomePosition outcomePosition(CredentialEntity row) {
        return row.outcomePartition == null || row.outcomeOffset == null
                ? null
                : new OutcomePosition(row.outcomePartition, row.outcomeOffset);
    }

    /** The credential as the routing view holds it; carries the sealed secret only, never the clear text. */
    public static CredentialSnapshot snapshot(
            CredentialEntity row, CredentialHealth health, List<String> groupIds, Instant publishedAt) {
        return snapshot(row, health, groupIds, publishedAt, null);
    }

    /** The snapshot with {@code outcomeSentAt}, the timestamp of the outcome that caused it (null: none). */
    private static CredentialSnapshot snapshot(
            CredentialEntity row,
            CredentialHealth health,
            List<String> groupIds,
            Instant publishedAt,
            Instant outcomeSentAt) {
        JsonNode config = configJson(row);
        return new CredentialSnapshot(
                row.id,
                row.stateVersion,
                row.name,
                Platform.fromWire(row.platform),
                CredentialKind.fromWire(row.kind),
                row.baseUrl,
                row.encryptedSecret,
                ModelMappings.fromConfigJson(config),
                FailurePolicy.fromConfigJson(config),
                row.enabled,
                row.archived,
                row.inPool,
                row.priority,
                WeightMode.fromWire(row.weightMode),
                row.weight,
                row.quotaRemaining,
                groupIds,
                health.account(),
                List.copyOf(health.models().values()),
                publishedAt,
                oauthStatus(row),
                outcomeSentAt,
                outcomePosition(row),
                credentialLimits(row),
                upstreamHeaders(config));
    }

    /** The steering headers stored in config_json; none when absent or unreadable (a hand-edited config). */
    public static CredentialHeaders upstreamHeaders(JsonNode config) {
        JsonNode node = config == null ? null : config.get("upstream_headers");
        if (node == null || node.isNull()) {
            return CredentialHeaders.NONE;
        }
        try {
            return CredentialHeaders.parse(node);
        } catch (ValidationException e) {
            return CredentialHeaders.NONE;
        }
    }

    /**
     * The published OAuth status of an OAuth-managed official credential; null for api credentials
     * and official credentials holding a static token. An unreadable stored state reads as
     * unauthorized, so routing skips the account instead of using a token of unknown standing.
     */
    public static OAuthStatus oauthStatus(CredentialEntity row) {
        if (row.oauthState == null) {
            return null;
        }
        AuthState state;
        try {
            state = AuthState.fromWire(row.oauthState);
        } catch (IllegalArgumentException unknown) {
            state = AuthState.UNAUTHORIZED;
        }
        return new OAuthStatus(state, row.oauthAccessExpiresAt, row.oauthAccountId, row.oauthRefreshedAt);
    }

    public static GroupSnapshot groupSnapshot(GroupEntity row, Instant publishedAt) {
        return new GroupSnapshot(
                row.id,
                row.version,
                row.name,
                row.enabled,
                WeightMode.fromWire(row.weightMode),
                row.weight,
                textArray(row.exposedModels),
                row.affinityEnabled,
                BridgePolicy.fromWire(row.bridging),
                publishedAt);
    }

    public static AccessKeySnapshot accessKeySnapshot(AccessKeyEntity row, List<String> groupIds, Instant publishedAt) {
        List<Protocol> protocols = new ArrayList<>();
        for (String wire : textArray(row.allowedProtocols)) {
            try {
                protocols.add(Protocol.fromWire(wire));
            } catch (IllegalArgumentException unknown) {
                // a protocol this version does not know grants nothing
            }
        }
        return new AccessKeySnapshot(
                row.id,
                row.version,
                row.name,
                row.keyHash,
                row.keyPrefix,
                row.enabled,
                row.expiresAt,
                protocols,
                textArray(row.allowedModels),
                groupIds,
                publishedAt,
                row.teamId,
                keyLimits(row));
    }

    public static TeamSnapshot teamSnapshot(TeamEntity row, Instant publishedAt) {
        return new TeamSnapshot(row.id, row.version, row.name, teamLimits(row), row.weight, publishedAt);
    }

    /** The key's own limits; the columns' CHECK constraints are route-core's bounds. */
    public static Limits keyLimits(AccessKeyEntity row) {
        return limits(row.rpmLimit, row.tpmLimit, row.maxParallelRequests, row.maxBudget, row.budgetDuration);
    }

    public static void writeKeyLimits(AccessKeyEntity row, Limits limits) {
        row.rpmLimit = limits.rpmLimit();
        row.tpmLimit = limits.tpmLimit();
        row.maxParallelRequests = limits.maxParallelRequests();
        row.maxBudget = limits.maxBudget();
        row.budgetDuration =
                limits.budgetDuration() == null ? null : limits.budgetDuration().wire();
    }

    public static Limits teamLimits(TeamEntity row) {
        return limits(row.rpmLimit, row.tpmLimit, row.maxParallelRequests, row.maxBudget, row.budgetDuration);
    }

    public static void writeTeamLimits(TeamEntity row, Limits limits) {
        row.rpmLimit = limits.rpmLimit();
        row.tpmLimit = limits.tpmLimit();
        row.maxParallelRequests = limits.maxParallelRequests();
        row.maxBudget = limits.maxBudget();
        row.budgetDuration =
                limits.budgetDuration() == null ? null : limits.budgetDuration().wire();
    }

    public static CredentialLimits credentialLimits(CredentialEntity row) {
        return new CredentialLimits(row.rpmLimit, row.maxParallelRequests);
    }

    public static void writeCredentialLimits(CredentialEntity row, CredentialLimits limits) {
        row.rpmLimit = limits.rpmLimit();
        row.maxParallelRequests = limits.maxParallelRequests();
    }

    /** Limits from their columns; a stored budget ({@code NUMERIC(16,6)}) loses its trailing zeros. */
    public static Limits limits(
            Integer rpmLimit, Long tpmLimit, Integer maxParallelRequests, BigDecimal maxBudget, String budgetDuration) {
        return new Limits(
                rpmLimit,
                tpmLimit,
                maxParallelRequests,
                maxBudget == null ? null : plain(maxBudget),
                budgetDuration == null ? null : BudgetDuration.fromWire(budgetDuration));
    }

    /** The amount without trailing zeros and never in exponent form ({@code 10}, not {@code 1E+1}). */
    public static BigDecimal plain(BigDecimal amount) {
        BigDecimal stripped = amount.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    /** The stored config_json as a tree; anything unparsable reads as an empty object. */
    public static JsonNode configJson(CredentialEntity row) {
        return readTree(row.configJson);
    }

    /** A stored JSON array of strings; anything else reads as empty, non-text entries are skipped. */
    public static List<String> textArray(String json) {
        JsonNode node = readTree(json);
        List<String> values = new ArrayList<>();
        if (node.isArray()) {
            for (JsonNode entry : node) {
                if (entry.isTextual()) {
                    values.add(entry.asText());
                }
            }
        }
        return values;
    }

    /** Serializes a list of strings for a JSON array column. */
    public static String toTextArray(List<String> values) {
        return Json.write(values == null ? List.of() : values);
    }

    private static JsonNode readTree(String json) {
        if (json == null || json.isBlank()) {
            return Json.MAPPER.createObjectNode();
        }
        try {
            return Json.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return Json.MAPPER.createObjectNode();
        }
    }
}
