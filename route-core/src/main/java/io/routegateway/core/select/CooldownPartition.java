package io.routegateway.core.select;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The result of {@link SelectionSteps#partitionByCooldown}: three buckets, each in the candidates'
 * original order.
 *
 * @param eligible not cooling, not hard-excluded
 * @param cooling account or model cooldown not yet expired; only these may be the fallback
 * @param dropped in no bucket: model paused / error ({@code route_pool.model_unavailable}), and —
 *     when the caller passes them — credentials already tried in this request ({@code
 *     credential_not_allowed}) and legacy manual weight 0 ({@code credential_weight_zero})
 */
public record CooldownPartition(List<PoolCandidate> eligible, List<Cooling> cooling, List<Dropped> dropped) {

    /** A cooling candidate and its recovery time (the later of its account and model timestamps). */
    public record Cooling(PoolCandidate candidate, Instant recoveryAt, int originalIndex) {}

    /** A candidate in no bucket, and why. */
    public record Dropped(PoolCandidate candidate, ReasonCode reason, String detail) {}

    public CooldownPartition {
        eligible = List.copyOf(eligible);
        cooling = List.copyOf(cooling);
        dropped = List.copyOf(dropped);
    }

    /**
     * The soonest-recovering cooling candidate: earliest recovery time, stable tiebreak on the
     * original order. Empty when nothing is cooling.
     */
    public Optional<Cooling> fallback() {
        Cooling best = null;
        for (Cooling candidate : cooling) {
            if (best == null
                    || candidate.recoveryAt().isBefore(best.recoveryAt())
                    || (candidate.recoveryAt().equals(best.recoveryAt())
                            && candidate.originalIndex() < best.originalIndex())) {
                best = candidate;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * What the scheduler goes on with: a non-empty eligible bucket as-is; otherwise the single
     * soonest-recovering cooling candidate; otherwise nothing.
     */
    public List<PoolCandidate> selected() {
        if (!eligible.isEmpty()) {
            return eligible;
        }
        return fallback().map(cooling -> List.of(cooling.candidate())).orElse(List.of());
    }

    /** Whether {@link #selected()} came from the cooling fallback. */
    public boolean usesFallback() {
        return eligible.isEmpty() && !cooling.isEmpty();
    }

    /**
     * The code when {@link #selected()} is empty: {@code route_pool.model_unavailable} when only
     * hard exclusions emptied the set (a cooldown alone never produces it), {@code
     * no_available_credential} when tried or weight-0 credentials were among the drops; null when
     * something was selected.
     */
    public ReasonCode emptyReason() {
        if (!eligible.isEmpty() || !cooling.isEmpty()) {
            return null;
        }
        for (Dropped drop : dropped) {
            if (drop.reason() != ReasonCode.MODEL_UNAVAILABLE) {
                return ReasonCode.NO_AVAILABLE_CREDENTIAL;
            }
        }
        return ReasonCode.MODEL_UNAVAILABLE;
    }
}
