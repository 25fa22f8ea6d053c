package io.routegateway.state.credential;

import java.time.Instant;
import java.util.List;

/**
 * One row of a credential's 模型状态 section: every known model, healthy ones included (so they can
 * be paused pre-emptively).
 *
 * @param displayName {@code upstream (alias, …)} or {@code upstream (已移除映射)}
 * @param aliases client-facing names that reach this key
 * @param mappingRemoved no mapping reaches the key any more (已移除映射)
 * @param status {@code ok}, {@code error} or {@code paused}
 * @param hasRow a {@code route_credential_models} row exists (a failure or a pause)
 * @param available not paused, not error, not cooling
 * @param reason why it is unavailable: {@code paused}, {@code error} or {@code cooling}; null when
 *     available
 * @param remainingCooldownSeconds rounded up; null when not cooling
 * @param includedInClearAll 全部解除 clears it (something to clear, not paused)
 */
public record ModelView(
        String modelKey,
        String displayName,
        List<String> aliases,
        boolean mappingRemoved,
        String status,
        boolean hasRow,
        boolean available,
        String reason,
        Instant cooldownUntil,
        Long remainingCooldownSeconds,
        int transientFailureCount,
        int semanticFailureStreakCount,
        String lastFailureKind,
        String lastFailureMessage,
        boolean includedInClearAll) {}
