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

    /**
     * This row without its failure texts ({@code last_failure_message}, {@code
     * last_failure_response_json}): what the state topic carries. Routing and the gateways' own
     * transitions never read them (the streak compares fingerprints), and with them a snapshot grows by
     * up to 10 KB per failing model; they stay in the database and the admin API.
     */
    public ModelState withoutFailureTexts() {
        if (lastFailureMessage == null && lastFailureResponseJson == null) {
            return this;
        }
        return new ModelState(
                modelKey,
                status,
                transientFailureCount,
                cooldownUntil,
                semanticFailureStreakCount,
                semanticFailureStreakFingerprint,
                lastFailureKind,
                null,
                null,
                createdAt,
                updatedAt);
    }

    /** Failure fields reset, status kept: what success or "clear" does to a paused row. */
    public ModelState clearedOfFailures(ModelStatus keptStatus, Instant now) {
        return new ModelState(modelKey, keptStatus, 0, null, 0, null, null, null, null, createdAt, now);
    }
}
