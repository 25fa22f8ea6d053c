package io.routegateway.core.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.select.SelectionSteps;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;

/**
 * The pool's health at one instant, counted for the gateway's pool gauges: credentials by {@link
 * CredentialCondition}, (credential, model) rows by {@link ModelRowState}, per model key how many
 * credentials could serve it now, OAuth-managed accounts by authorization state and the soonest
 * access-token expiry. A pure function of the credential snapshots and {@code now}.
 *
 * <p>Labels stay bounded: a model key is counted only when an account's configuration names it (a
 * mapping's fixed target, or the platform baseline of official and mapping-less accounts, see
 * {@link ModelKeys#listedModelKeys}); names that only a pass-through mapping would send are never
 * counted, and at most {@link #MAX_MODELS} keys (the first by name) are kept.
 */
public record PoolCensus(
        Map<CredentialCondition, Integer> credentials,
        Map<ModelRowState, Integer> modelRows,
        SortedMap<String, ModelCredentials> models,
        Map<AuthState, Integer> oauth,
        OptionalDouble oauthNextExpirySeconds) {

    /** Most model keys reported; a pool naming more reports the first ones by name. */
    public static final int MAX_MODELS = 500;

    public static final PoolCensus EMPTY = of(Set.of(), Instant.EPOCH);

    /** A (credential, model) row that keeps the pair out of routing now. */
    public enum ModelRowState {
        /** Its cooldown has not run out (a wait: the cooling fallback may still pick it). */
        COOLING,
        /** Status {@code error}: set by a failure streak, cleared by hand or a model test. */
        ERROR,
        /** Status {@code paused}: set by hand. */
        PAUSED;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The credentials that name one model key and belong to a group, by what they can do now.
     *
     * @param available routable and neither the account nor the model is cooling
     * @param cooling routable but the account or the model is cooling
     * @param unavailable out of routing (revoked, error, quota, authorization, the model paused or
     *     in error); credentials an operator disabled or paused are not counted at all
     */
    public record ModelCredentials(int available, int cooling, int unavailable) {

        ModelCredentials plus(ModelCredentials other) {
            return new ModelCredentials(
                    available + other.available, cooling + other.cooling, unavailable + other.unavailable);
        }
    }

    public PoolCensus {
        credentials = Collections.unmodifiableMap(new EnumMap<>(credentials));
        modelRows = Collections.unmodifiableMap(new EnumMap<>(modelRows));
        models = Collections.unmodifiableSortedMap(new TreeMap<>(models));
        oauth = Collections.unmodifiableMap(new EnumMap<>(oauth));
    }

    /** Credentials in {@code condition}. */
    public int credentials(CredentialCondition condition) {
        return credentials.getOrDefault(condition, 0);
    }

    /** (credential, model) rows in {@code state}. */
    public int modelRows(ModelRowState state) {
        return modelRows.getOrDefault(state, 0);
    }

    /** OAuth-managed official credentials in {@code state}. */
    public int oauth(AuthState state) {
        return oauth.getOrDefault(state, 0);
    }

    /** Counts the non-archived credentials among {@code credentials} at {@code now}. */
    public static PoolCensus of(Collection<CredentialSnapshot> credentials, Instant now) {
        Map<CredentialCondition, Integer> conditions = zeros(CredentialCondition.class);
        Map<ModelRowState, Integer> rows = zeros(ModelRowState.class);
        Map<AuthState, Integer> oauth = zeros(AuthState.class);
        TreeMap<String, ModelCredentials> models = new TreeMap<>();
        double soonestExpiry = Double.NaN;
        for (CredentialSnapshot credential : credentials) {
            if (credential.archived()) {
                continue;
            }
            conditions.merge(CredentialCondition.of(credential, now), 1, Integer::sum);
            for (ModelState row : credential.models()) {
                ModelRowState state = rowState(row, now);
                if (state != null) {
                    rows.merge(state, 1, Integer::sum);
                }
            }
            OAuthStatus status = credential.oauth();
            if (credential.kind() == CredentialKind.OFFICIAL && status != null) {
                oauth.merge(status.state(), 1, Integer::sum);
                if (status.state() == AuthState.AUTHORIZED
                        && status.accessExpiresAt() != null
                        && credential.account().status() != AccountStatus.REVOKED) {
                    double seconds =
                            Duration.between(now, status.accessExpiresAt()).toMillis() / 1000.0;
                    soonestExpiry = Double.isNaN(soonestExpiry) ? seconds : Math.min(soonestExpiry, seconds);
                }
            }
            countModels(credential, now, models);
        }
        while (models.size() > MAX_MODELS) {
            models.pollLastEntry();
        }
        return new PoolCensus(
                conditions,
                rows,
                models,
                oauth,
                Double.isNaN(soonestExpiry) ? OptionalDouble.empty() : OptionalDouble.of(soonestExpiry));
    }

    private static ModelRowState rowState(ModelState row, Instant now) {
        if (row.status() == ModelStatus.PAUSED) {
            return ModelRowState.PAUSED;
        }
        if (row.status() == ModelStatus.ERROR) {
            return ModelRowState.ERROR;
        }
        return row.isCoolingAt(now) ? ModelRowState.COOLING : null;
    }

    /**
     * Adds what {@code credential} can do for each model key it names: only group members an
     * operator has not turned off offer a model at all.
     */
    private static void countModels(
            CredentialSnapshot credential, Instant now, TreeMap<String, ModelCredentials> models) {
        if (credential.platform() == null
                || credential.groupIds().isEmpty()
                || CredentialCondition.isOperatorTurnedOff(credential)) {
            return;
        }
        boolean routable =
                SelectionSteps.loadRejection(credential) == null && SelectionSteps.passesPlatformRule(credential);
        Instant accountCoolingUntil = credential.account().coolingUntil();
        boolean accountCooling = accountCoolingUntil != null && accountCoolingUntil.isAfter(now);
        Set<String> keys = ModelKeys.listedModelKeys(
                credential.platform(), credential.kind(), credential.modelMappings(), Set.of());
        for (String key : keys) {
            ModelState row = rowOf(credential, key);
            ModelCredentials one;
            if (!routable || (row != null && row.isHardExcluded())) {
                one = new ModelCredentials(0, 0, 1);
            } else if (accountCooling || (row != null && row.isCoolingAt(now))) {
                one = new ModelCredentials(0, 1, 0);
            } else {
                one = new ModelCredentials(1, 0, 0);
            }
            models.merge(key, one, ModelCredentials::plus);
        }
    }

    private static ModelState rowOf(CredentialSnapshot credential, String modelKey) {
        for (ModelState row : credential.models()) {
            if (row.modelKey().equals(modelKey)) {
                return row;
            }
        }
        return null;
    }

    private static <E extends Enum<E>> Map<E, Integer> zeros(Class<E> type) {
        Map<E, Integer> counts = new EnumMap<>(type);
        for (E value : type.getEnumConstants()) {
            counts.put(value, 0);
        }
        return counts;
    }
}
