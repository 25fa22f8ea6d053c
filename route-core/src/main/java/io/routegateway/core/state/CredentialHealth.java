package io.routegateway.core.state;

import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The whole health state of one credential: its account row and its model rows by key. */
public record CredentialHealth(AccountState account, Map<String, ModelState> models) {

    public static final CredentialHealth HEALTHY = new CredentialHealth(AccountState.HEALTHY, Map.of());

    public CredentialHealth {
        if (account == null) {
            throw new IllegalArgumentException("account is required");
        }
        models = Collections.unmodifiableMap(new TreeMap<>(models == null ? Map.of() : models));
    }

    /** The account row and a list of model rows (a later row of the same key wins). */
    public static CredentialHealth of(AccountState account, List<ModelState> rows) {
        Map<String, ModelState> byKey = new HashMap<>();
        for (ModelState row : rows) {
            byKey.put(row.modelKey(), row);
        }
        return new CredentialHealth(account, byKey);
    }

    public Optional<ModelState> model(String modelKey) {
        return Optional.ofNullable(modelKey == null ? null : models.get(modelKey));
    }

    public CredentialHealth withAccount(AccountState next) {
        return new CredentialHealth(next, models);
    }

    public CredentialHealth withModel(ModelState row) {
        TreeMap<String, ModelState> next = new TreeMap<>(models);
        next.put(row.modelKey(), row);
        return new CredentialHealth(account, next);
    }

    public CredentialHealth withoutModel(String modelKey) {
        if (!models.containsKey(modelKey)) {
            return this;
        }
        TreeMap<String, ModelState> next = new TreeMap<>(models);
        next.remove(modelKey);
        return new CredentialHealth(account, next);
    }

    /**
     * Any row that is not a manual pause: the spec's {@code has_model_failures}, decided here only
     * (recovery-service reads the rows and asks this, it does not count them in SQL).
     */
    public boolean hasModelFailures() {
        return models.values().stream().anyMatch(row -> row.status() != ModelStatus.PAUSED);
    }

    /** Cooling (not yet expired) + error + paused rows: the "模型 N 不可用" count. */
    public long unavailableModelCount(Instant now) {
        return models.values().stream().filter(row -> row.isUnavailableAt(now)).count();
    }
}
