package io.routegateway.core.state;

import java.time.Instant;

/**
 * One row of {@code route_credential_models}: the state of one (account, model key) pair. Rows
 * exist only after a failure or a manual pause.
 */
public record ModelState(
        String modelKey,
        ModelStatus status,
        int transientFailureCount,
        Instant cooldownUntil,
        int semanticFailureStreakCount,
        String semanticFailureStreakFingerprint,
        String lastFailureKind,
        String lastFailureMessage,
        String lastFailureResponseJson,
        Instant createdAt,
        Instant updatedAt) {

    public ModelState {
        if (modelKey == null || modelKey.isBlank()) {
            throw new IllegalArgumentException("model_key is required");
        }
        if (status == null) {
            throw new IllegalArgumentException("status is required");
        }
    }

    /** A fresh row as created by a first failure or a pause. */
    public static ModelState created(String modelKey, ModelStatus status, Instant now) {
        return new ModelState(modelKey, status, 0, null, 0, null, null, null, null, now, now);
    }

    public boolean isCoolingAt(Instant now) {
        return cooldownUntil != null && cooldownUntil.isAfter(now);
    }

    /** Paused or error rows are hard exclusions; cooling rows are only waits. */
    public boolean isHardExcluded() {
        return status == ModelStatus.PAUSED || status == ModelStatus.ERROR;
    }

    /** Unavailable for the escalation check and the "模型 N 不可用" badge. */
    public boolean isUnavailableAt(Instant now) {
        return isHardExcluded() || isCoolingAt(now);
    }

    public boolean hasFailureState() {
        return status == ModelStatus.ERROR
                || transientFailureCount > 0
                || cooldownUntil != null
                || semanticFailureStreakCount > 0
                || lastFailureKind != null;
    }

    public ModelState withStatus(ModelStatus next, Instant now) {
        return new ModelState(
                modelKey,
                next,
                transientFailureCount,
                cooldownUntil,
                semanticFailureStreakCount,
                semanticFailureStreakFingerprint,
                lastFailureKind,
                lastFailureMessage,
                lastFailureResponseJson,
                createdAt,
                now);
    }

    /** Failure fields reset, status kept: what success or "clear" does to a paused row. */
    public ModelState clearedOfFailures(ModelStatus keptStatus, Instant now) {
        return new ModelState(modelKey, keptStatus, 0, null, 0, null, null, null, null, createdAt, now);
    }
}
