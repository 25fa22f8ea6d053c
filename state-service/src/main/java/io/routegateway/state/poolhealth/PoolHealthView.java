package io.routegateway.state.poolhealth;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The pool overview of the Health tab: per credential its status tag, badges, unavailable models and
 * reminders, all derived by route-core's {@code HealthView}. Archived credentials are left out.
 *
 * @param byStatus credentials per account status ({@code ok}, {@code warning}, {@code error},
 *     {@code paused}, {@code revoked})
 * @param cooling credentials with an account-level cooldown running
 * @param failing credentials whose status tag shows {@code 错误 N 次}
 * @param withUnavailableModels credentials showing {@code 模型 N 不可用}
 */
public record PoolHealthView(
        Instant generatedAt,
        int credentials,
        Map<String, Integer> byStatus,
        int cooling,
        int failing,
        int withUnavailableModels,
        int disabled,
        List<CredentialHealthView> items) {

    /**
     * @param statusTag {@code 错误 N 次} or the status
     * @param cooldownBadge {@code 冷却 N 秒} (account level only), else null
     * @param unavailableModelsBadge {@code 模型 N 不可用}, else null
     * @param unavailableModels the badge's hover panel
     */
    public record CredentialHealthView(
            String id,
            String name,
            String platform,
            String kind,
            boolean enabled,
            boolean inPool,
            String status,
            String statusTag,
            int failureCount,
            String cooldownBadge,
            Long cooldownRemainingSeconds,
            Instant cooldownUntil,
            String unavailableModelsBadge,
            List<UnavailableModelView> unavailableModels,
            List<ReminderView> reminders,
            String lastFailureKind,
            String lastFailureMessage) {}

    /**
     * @param displayName {@code upstream (aliases)} or {@code upstream (已移除映射)}
     * @param reason {@code paused}, {@code error} or {@code cooling}
     * @param remainingSeconds left on the model cooldown, rounded up; null when not cooling
     */
    public record UnavailableModelView(
            String modelKey,
            String displayName,
            List<String> aliases,
            boolean mappingRemoved,
            String reason,
            Long remainingSeconds,
            String lastFailureMessage) {}

    /** @param code {@code sensitive_words} or {@code budget_pool} */
    public record ReminderView(String code, String text) {}
}
