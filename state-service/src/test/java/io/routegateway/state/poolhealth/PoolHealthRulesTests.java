package io.routegateway.state.poolhealth;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The Health tab's overview from plain credential values: items, their order and the counts. */
class PoolHealthRulesTests {

    private static final Instant NOW = Instant.parse("2026-09-02T08:00:00Z");
    private static final List<ModelMapping> MAPPINGS =
            List.of(new ModelMapping("gpt-5.6-sol", "upstream-sol"), new ModelMapping("glm-5.3", "upstream-glm"));
    private static final UnaryOperator<String> REDACT =
            message -> message == null ? null : message.replace("sk-secret", "[redacted]");

    private static AccountState account(AccountStatus status, int failures, Instant cooldownUntil, String message) {
        return new AccountState(
                status,
                failures,
                null,
                cooldownUntil,
                message == null ? null : "upstream_status",
                message,
                null,
                0,
                null);
    }

    private static ModelState model(String key, ModelStatus status, Instant cooldownUntil, String message) {
        return new ModelState(key, status, 1, cooldownUntil, 0, null, "upstream_status", message, null, NOW, NOW);
    }

    private static PoolHealthRules.Account credential(
            String id, int priority, boolean enabled, CredentialHealth health) {
        return new PoolHealthRules.Account(
                id, "Name " + id, "openai", "api", enabled, true, priority, MAPPINGS, health, REDACT);
    }

    @Test
    void anEmptyPoolCountsZeroForEveryStatus() {
        PoolHealthView view = PoolHealthRules.overview(List.of(), NOW);
        assertThat(view.generatedAt()).isEqualTo(NOW);
        assertThat(view.credentials()).isZero();
        assertThat(view.items()).isEmpty();
        assertThat(view.byStatus()).containsOnlyKeys("ok", "warning", "error", "paused", "revoked");
        assertThat(view.byStatus().values()).containsOnly(0);
        assertThat(List.of(view.cooling(), view.failing(), view.withUnavailableModels(), view.disabled()))
                .containsOnly(0);
    }

    @Test
    void itemsAreInPoolOrderAndTheCountsAddUp() {
        PoolHealthRules.Account healthy = credential("cred-b", 1, true, CredentialHealth.HEALTHY);
        PoolHealthRules.Account cooling = credential(
                "cred-a",
                1,
                true,
                new CredentialHealth(account(AccountStatus.OK, 2, NOW.plusSeconds(30), "429 for sk-secret"), Map.of()));
        PoolHealthRules.Account modelDown = credential(
                "cred-c",
                0,
                false,
                new CredentialHealth(
                        account(AccountStatus.OK, 1, null, null),
                        Map.of(
                                "upstream-sol",
                                model("upstream-sol", ModelStatus.OK, NOW.plusSeconds(9), "sk-secret overloaded"))));
        PoolHealthRules.Account revoked = credential(
                "cred-d", 5, false, new CredentialHealth(account(AccountStatus.REVOKED, 3, null, null), Map.of()));

        PoolHealthView view = PoolHealthRules.overview(List.of(revoked, healthy, cooling, modelDown), NOW);

        assertThat(view.items())
                .extracting(PoolHealthView.CredentialHealthView::id)
                .containsExactly("cred-c", "cred-a", "cred-b", "cred-d");
        assertThat(view.credentials()).isEqualTo(4);
        assertThat(view.byStatus())
                .containsEntry("ok", 3)
                .containsEntry("revoked", 1)
                .containsEntry("error", 0)
                .containsEntry("warning", 0)
                .containsEntry("paused", 0);
        assertThat(view.cooling()).isEqualTo(1);
        assertThat(view.failing()).isEqualTo(2);
        assertThat(view.withUnavailableModels()).isEqualTo(1);
        assertThat(view.disabled()).isEqualTo(2);
    }

    @Test
    void anAccountCooldownShowsItsBadgeRemainingTimeAndRedactedMessage() {
        PoolHealthView.CredentialHealthView item = PoolHealthRules.item(
                credential(
                        "cred-a",
                        1,
                        true,
                        new CredentialHealth(
                                account(AccountStatus.WARNING, 2, NOW.plusMillis(9_200), "429 for sk-secret"),
                                Map.of())),
                NOW);
        assertThat(item.id()).isEqualTo("cred-a");
        assertThat(item.name()).isEqualTo("Name cred-a");
        assertThat(item.platform()).isEqualTo("openai");
        assertThat(item.kind()).isEqualTo("api");
        assertThat(item.enabled()).isTrue();
        assertThat(item.inPool()).isTrue();
        assertThat(item.status()).isEqualTo("warning");
        assertThat(item.statusTag()).isEqualTo("错误 2 次");
        assertThat(item.failureCount()).isEqualTo(2);
        assertThat(item.cooldownBadge()).isEqualTo("冷却 10 秒");
        assertThat(item.cooldownRemainingSeconds()).isEqualTo(10L);
        assertThat(item.cooldownUntil()).isEqualTo(NOW.plusMillis(9_200));
        assertThat(item.unavailableModelsBadge()).isNull();
        assertThat(item.unavailableModels()).isEmpty();
        assertThat(item.lastFailureKind()).isEqualTo("upstream_status");
        assertThat(item.lastFailureMessage()).isEqualTo("429 for [redacted]");
    }

    @Test
    void aModelCooldownShowsTheModelBadgeAndPanelButNoAccountCooldown() {
        PoolHealthView.CredentialHealthView item = PoolHealthRules.item(
                credential(
                        "cred-a",
                        1,
                        true,
                        new CredentialHealth(
                                account(AccountStatus.OK, 1, null, null),
                                Map.of(
                                        "upstream-sol",
                                        model("upstream-sol", ModelStatus.OK, NOW.plusSeconds(9), "sk-secret busy")))),
                NOW);
        assertThat(item.statusTag()).isEqualTo("错误 1 次");
        assertThat(item.cooldownBadge()).isNull();
        assertThat(item.cooldownRemainingSeconds()).isNull();
        assertThat(item.cooldownUntil()).isNull();
        assertThat(item.unavailableModelsBadge()).isEqualTo("模型 1 不可用");
        assertThat(item.unavailableModels()).singleElement().satisfies(model -> {
            assertThat(model.modelKey()).isEqualTo("upstream-sol");
            assertThat(model.displayName()).isEqualTo("upstream-sol (gpt-5.6-sol)");
            assertThat(model.aliases()).containsExactly("gpt-5.6-sol");
            assertThat(model.mappingRemoved()).isFalse();
            assertThat(model.reason()).isEqualTo("cooling");
            assertThat(model.remainingSeconds()).isEqualTo(9L);
            assertThat(model.lastFailureMessage()).isEqualTo("[redacted] busy");
        });
    }

    @Test
    void aTerminalStatusKeepsItsLabel() {
        PoolHealthView.CredentialHealthView item = PoolHealthRules.item(
                credential(
                        "cred-a",
                        1,
                        false,
                        new CredentialHealth(account(AccountStatus.ERROR, 4, null, "quota"), Map.of())),
                NOW);
        assertThat(item.status()).isEqualTo("error");
        assertThat(item.statusTag()).isEqualTo("error");
        assertThat(item.enabled()).isFalse();
        assertThat(item.reminders())
                .allSatisfy(reminder -> assertThat(reminder.code()).isIn("sensitive_words", "budget_pool"));
    }
}
