package io.routegateway.core.select;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthStatus;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;

/**
 * The five credential-selection steps of one pool, in the spec's fixed order, each as a pure
 * function with its own error:
 *
 * <ol>
 *   <li>{@link #loadCandidates} — in the pool and enabled, not archived, status {@code ok}, quota
 *       null or above zero. Does not judge cooldown.
 *   <li>{@link #filterForRule} — the platform capability rule ({@link
 *       io.routegateway.core.model.Platform#accepts}); empty → {@code
 *       route_pool.no_enabled_credentials} ("No enabled route credentials in pool").
 *   <li>{@link #filterForModel} — serves the requested model, and the model key it is charged
 *       under; empty → {@code route_pool.model_unmatched}. No model name: every candidate passes,
 *       with no model key.
 *   <li>{@link #loadModelStates} — model state keyed by the (credential id, model key) pair.
 *   <li>{@link #partitionByCooldown} — paused / error dropped outright; account or model cooldown
 *       not expired → cooling; else eligible. Eligible non-empty → used as-is; else the single
 *       soonest-recovering cooling candidate; empty → {@code route_pool.model_unavailable}.
 * </ol>
 *
 * <p>These list functions are the reference implementation, used to build {@link PoolView}'s
 * per-model candidate index (steps 1–3) and by route check; {@link Router} runs step 5 over that
 * index with the same {@link #classify} decision, so the two cannot disagree.
 *
 * <p>Two request-level exclusions run just before the partition, so the cooling fallback never
 * picks them: credentials already tried in this request ({@code credential_not_allowed}) and
 * legacy manual weight 0 ({@code credential_weight_zero}).
 */
public final class SelectionSteps {

    static final int ELIGIBLE = 0;
    static final int COOLING = 1;
    static final int HARD_EXCLUDED = 2;
    static final int NOT_ALLOWED = 3;
    static final int WEIGHT_ZERO = 4;
    static final int FULL = 5;

    private SelectionSteps() {}

    // ---- step 1 ------------------------------------------------------------------------------

    /**
     * Why step 1 drops a credential, or null when it is a candidate. Mapping to the scheduling
     * page's codes: disabled, archived, out of the pool, or account status {@code paused} →
     * {@code credential_disabled}; status {@code revoked} on a subscription ({@code official})
     * account → {@code credential_auth_unavailable}; {@code revoked} on an api key, {@code error},
     * {@code warning}, or quota at or below zero → {@code credential_blacklisted} (the brief's
     * "blacklist" is the error status; quota exhaustion is what sets it).
     */
    public static ReasonCode loadRejection(CredentialSnapshot credential) {
        if (!credential.enabled() || credential.archived() || !credential.inPool()) {
            return ReasonCode.CREDENTIAL_DISABLED;
        }
        AccountStatus status = credential.account().status();
        if (status == AccountStatus.PAUSED) {
            return ReasonCode.CREDENTIAL_DISABLED;
        }
        if (status == AccountStatus.REVOKED) {
            return credential.kind() == CredentialKind.OFFICIAL
                    ? ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE
                    : ReasonCode.CREDENTIAL_BLACKLISTED;
        }
        if (status != AccountStatus.OK) {
            return ReasonCode.CREDENTIAL_BLACKLISTED;
        }
        if (credential.kind() == CredentialKind.OFFICIAL && credential.authUnavailable()) {
            // an OAuth-managed official account whose access token is expired or was never
            // authorized: skipped like a revoked one until a refresh or a re-authorization lands
            return ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE;
        }
        if (!hasQuota(credential)) {
            return ReasonCode.CREDENTIAL_BLACKLISTED;
        }
        return null;
    }

    /** Human-readable detail for {@link #loadRejection}, for route check; null when kept. */
    public static String loadRejectionDetail(CredentialSnapshot credential) {
        if (!credential.enabled()) {
            return "disabled";
        }
        if (credential.archived()) {
            return "archived";
        }
        if (!credential.inPool()) {
            return "not in the pool";
        }
        if (credential.account().status() != AccountStatus.OK) {
            return credential.kind() == CredentialKind.OFFICIAL
                            && credential.account().status() == AccountStatus.REVOKED
                    ? "status revoked: the subscription account's authorization is void — reauthorize"
                    : "status " + credential.account().status().wire();
        }
        if (credential.kind() == CredentialKind.OFFICIAL && credential.authUnavailable()) {
            return authDetail(credential.oauth());
        }
        if (!hasQuota(credential)) {
            return "quota exhausted (quota_remaining " + credential.quotaRemaining() + ")";
        }
        return null;
    }

    /** Why an official account's authorization is unusable, for route check and the views. */
    static String authDetail(OAuthStatus oauth) {
        if (oauth.state() == AuthState.EXPIRED) {
            return "authorization expired"
                    + (oauth.accessExpiresAt() == null
                            ? ""
                            : " (access token expired at " + oauth.accessExpiresAt() + ")")
                    + ": no refresh has succeeded yet — reauthorize if it persists";
        }
        return "authorization " + oauth.state().wire() + ": the subscription account awaits onboarding — authorize it";
    }

    /** Quota column null (unlimited) or above zero. */
    public static boolean hasQuota(CredentialSnapshot credential) {
        return credential.quotaRemaining() == null || credential.quotaRemaining() > 0;
    }

    /** Step 1 over a pool, original order kept. */
    public static List<CredentialSnapshot> loadCandidates(Collection<CredentialSnapshot> pool) {
        List<CredentialSnapshot> kept = new ArrayList<>(pool.size());
        for (CredentialSnapshot credential : pool) {
            if (loadRejection(credential) == null) {
                kept.add(credential);
            }
        }
        return kept;
    }

    // ---- step 2 ------------------------------------------------------------------------------

    /** The platform capability rule for one credential. */
    public static boolean passesPlatformRule(CredentialSnapshot credential) {
        return credential.platform() == null || credential.platform().accepts(credential.kind());
    }

    /** Step 2; an empty result is {@link ReasonCode#NO_ENABLED_CREDENTIALS}. */
    public static List<CredentialSnapshot> filterForRule(List<CredentialSnapshot> candidates) {
        List<CredentialSnapshot> kept = new ArrayList<>(candidates.size());
        for (CredentialSnapshot credential : candidates) {
            if (passesPlatformRule(credential)) {
                kept.add(credential);
            }
        }
        return kept;
    }

    // ---- step 3 ------------------------------------------------------------------------------

    /**
     * Whether one credential serves the model and under which key: empty when it does not; a
     * candidate without model key and upstream name when {@code requestedModel} is null.
     */
    public static Optional<PoolCandidate> resolveModel(CredentialSnapshot credential, String requestedModel) {
        if (requestedModel == null) {
            return Optional.of(new PoolCandidate(credential, null, null));
        }
        Optional<String> upstream =
                ModelKeys.upstreamModel(credential.kind(), credential.modelMappings(), requestedModel);
        if (upstream.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new PoolCandidate(credential, ModelKeys.stripOneM(upstream.get()), upstream.get()));
    }

    /**
     * Step 3, one pass; an empty result is {@link ReasonCode#MODEL_UNMATCHED}.
     *
     * @param requestedModel null or blank: the model filter is skipped
     */
    public static List<PoolCandidate> filterForModel(List<CredentialSnapshot> candidates, String requestedModel) {
        String model = normalizeModel(requestedModel);
        List<PoolCandidate> kept = new ArrayList<>(candidates.size());
        for (CredentialSnapshot credential : candidates) {
            resolveModel(credential, model).ifPresent(kept::add);
        }
        return kept;
    }

    // ---- step 4 ------------------------------------------------------------------------------

    /**
     * Step 4: the model rows of the whole candidate set, keyed by (credential id, model key).
     * Candidates without a model key (no model name) read nothing.
     */
    public static Map<CredentialModelKey, ModelState> loadModelStates(List<PoolCandidate> candidates) {
        Map<CredentialModelKey, ModelState> states = new HashMap<>();
        for (PoolCandidate candidate : candidates) {
            if (candidate.modelKey() == null) {
                continue;
            }
            for (ModelState row : candidate.credential().models()) {
                if (row.modelKey().equals(candidate.modelKey())) {
                    states.put(new CredentialModelKey(candidate.credentialId(), row.modelKey()), row);
                }
            }
        }
        return states;
    }

    // ---- step 5 ------------------------------------------------------------------------------

    /** Step 5 exactly as the spec states it (no request-level exclusions). */
    public static CooldownPartition partitionByCooldown(
            List<PoolCandidate> candidates, Map<CredentialModelKey, ModelState> modelStates, Instant now) {
        return partitionByCooldown(candidates, modelStates, Set.of(), now);
    }

    /**
     * Step 5 with the request-level exclusions applied first: credentials in {@code excluded}
     * ({@code credential_not_allowed}) and manual weight 0 ({@code credential_weight_zero}) are
     * dropped and never become the cooling fallback.
     */
    public static CooldownPartition partitionByCooldown(
            List<PoolCandidate> candidates,
            Map<CredentialModelKey, ModelState> modelStates,
            Set<String> excluded,
            Instant now) {
        List<PoolCandidate> eligible = new ArrayList<>();
        List<CooldownPartition.Cooling> cooling = new ArrayList<>();
        List<CooldownPartition.Dropped> dropped = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            PoolCandidate candidate = candidates.get(i);
            CredentialSnapshot credential = candidate.credential();
            ModelState row = candidate.modelKey() == null
                    ? null
                    : modelStates.get(new CredentialModelKey(candidate.credentialId(), candidate.modelKey()));
            Instant accountUntil = credential.account().coolingUntil();
            int verdict = classify(
                    excluded.contains(candidate.credentialId()), isWeightZero(credential), row, accountUntil, now);
            switch (verdict) {
                case ELIGIBLE:
                    eligible.add(candidate);
                    break;
                case COOLING:
                    cooling.add(new CooldownPartition.Cooling(candidate, recoveryAt(accountUntil, row), i));
                    break;
                default:
                    dropped.add(new CooldownPartition.Dropped(candidate, reasonOf(verdict), dropDetail(verdict, row)));
                    break;
            }
        }
        return new CooldownPartition(eligible, cooling, dropped);
    }

    /**
     * Steps 1–5 over one pool with their distinct errors.
     *
     * @param pool the group's credentials in their original order
     * @param requestedModel null or blank when the request names no model
     * @param excluded credentials already tried in this request
     */
    public static PoolSelection selectFromPool(
            Collection<CredentialSnapshot> pool, String requestedModel, Set<String> excluded, Instant now) {
        if (pool.isEmpty()) {
            return PoolSelection.failed(ReasonCode.NO_CREDENTIALS, null);
        }
        List<CredentialSnapshot> ruled = filterForRule(loadCandidates(pool));
        if (ruled.isEmpty()) {
            // a pool of subscription accounts none of which is authorized says so
            boolean allAuthUnavailable = pool.stream()
                    .allMatch(credential -> loadRejection(credential) == ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE);
            return PoolSelection.failed(
                    allAuthUnavailable ? ReasonCode.CREDENTIAL_AUTH_UNAVAILABLE : ReasonCode.NO_ENABLED_CREDENTIALS,
                    null);
        }
        List<PoolCandidate> matched = filterForModel(ruled, requestedModel);
        if (matched.isEmpty()) {
            return PoolSelection.failed(ReasonCode.MODEL_UNMATCHED, null);
        }
        CooldownPartition partition = partitionByCooldown(matched, loadModelStates(matched), excluded, now);
        List<PoolCandidate> selected = partition.selected();
        if (selected.isEmpty()) {
            return PoolSelection.failed(partition.emptyReason(), partition);
        }
        return new PoolSelection(
                selected,
                partition.usesFallback(),
                partition.usesFallback() ? partition.fallback().orElseThrow().recoveryAt() : null,
                null,
                partition);
    }

    /**
     * The outcome of {@link #selectFromPool}: the candidates to choose from, or the failure code.
     *
     * @param recoveryAt the fallback candidate's recovery time, null unless {@code fromCoolingFallback}
     * @param partition null when a step before the partition failed
     */
    public record PoolSelection(
            List<PoolCandidate> selected,
            boolean fromCoolingFallback,
            Instant recoveryAt,
            ReasonCode failure,
            CooldownPartition partition) {

        public PoolSelection {
            selected = List.copyOf(selected);
        }

        static PoolSelection failed(ReasonCode failure, CooldownPartition partition) {
            return new PoolSelection(List.of(), false, null, failure, partition);
        }
    }

    // ---- shared decisions ----------------------------------------------------------------------

    /**
     * The one step-5 decision, in order: already tried → weight 0 → model paused / error → cooling
     * (account {@code cooldown_until} / {@code next_retry_at} or model {@code cooldown_until} after
     * {@code now}) → eligible.
     */
    static int classify(boolean tried, boolean weightZero, ModelState row, Instant accountCoolingUntil, Instant now) {
        return classify(tried, weightZero, false, row, accountCoolingUntil, now);
    }

    /**
     * {@link #classify(boolean, boolean, ModelState, Instant, Instant)} with the credential's own
     * limits: one that is full ({@link FullCredentials}) is skipped after the paused / error check and
     * before the cooling one, so it is never the cooling probe either.
     */
    static int classify(
            boolean tried, boolean weightZero, boolean full, ModelState row, Instant accountCoolingUntil, Instant now) {
        if (tried) {
            return NOT_ALLOWED;
        }
        if (weightZero) {
            return WEIGHT_ZERO;
        }
        if (row != null && row.isHardExcluded()) {
            return HARD_EXCLUDED;
        }
        if (full) {
            return FULL;
        }
        if ((accountCoolingUntil != null && accountCoolingUntil.isAfter(now))
                || (row != null && row.isCoolingAt(now))) {
            return COOLING;
        }
        return ELIGIBLE;
    }

    /** The later of the account's cooling timestamp and the model row's; null when neither is set. */
    static Instant recoveryAt(Instant accountCoolingUntil, ModelState row) {
        Instant model = row == null ? null : row.cooldownUntil();
        if (model == null) {
            return accountCoolingUntil;
        }
        if (accountCoolingUntil == null) {
            return model;
        }
        return model.isAfter(accountCoolingUntil) ? model : accountCoolingUntil;
    }

    /** Legacy manual weight 0 (the API never accepts it any more). */
    public static boolean isWeightZero(CredentialSnapshot credential) {
        return credential.weightMode() == WeightMode.MANUAL && credential.weight() <= 0;
    }

    static ReasonCode reasonOf(int verdict) {
        switch (verdict) {
            case NOT_ALLOWED:
                return ReasonCode.CREDENTIAL_NOT_ALLOWED;
            case WEIGHT_ZERO:
                return ReasonCode.CREDENTIAL_WEIGHT_ZERO;
            case FULL:
                return ReasonCode.CREDENTIAL_FULL;
            case HARD_EXCLUDED:
                return ReasonCode.MODEL_UNAVAILABLE;
            case COOLING:
                return ReasonCode.CREDENTIAL_COOLDOWN;
            default:
                return null;
        }
    }

    static String dropDetail(int verdict, ModelState row) {
        switch (verdict) {
            case NOT_ALLOWED:
                return "already tried in this request";
            case WEIGHT_ZERO:
                return "manual weight 0";
            case FULL:
                return "at its own rpm_limit or max_parallel_requests";
            case HARD_EXCLUDED:
                return row.status() == ModelStatus.PAUSED ? "model paused" : "model error";
            default:
                return null;
        }
    }

    /** Null for a missing or blank model name, else the name unchanged. */
    public static String normalizeModel(String requestedModel) {
        return requestedModel == null || requestedModel.isBlank() ? null : requestedModel;
    }
}
