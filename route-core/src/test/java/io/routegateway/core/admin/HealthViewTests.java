package io.routegateway.core.admin;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.routegateway.core.admin.HealthView.KnownModel;
import io.routegateway.core.admin.HealthView.Reminder;
import io.routegateway.core.admin.HealthView.UnavailableModel;
import io.routegateway.core.admin.HealthView.UnavailableReason;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

class HealthViewTests {

    static final Instant NOW = Instant.parse("2026-09-02T08:00:00Z");
    static final List<ModelMapping> MAPPINGS = List.of(
            new ModelMapping("gpt-5.6-sol", "upstream-sol"),
            new ModelMapping("sol-latest", "upstream-sol"),
            new ModelMapping("glm-5.3", "upstream-glm"));

    static AccountState account(AccountStatus status, int failures, Instant nextRetryAt, Instant cooldownUntil) {
        return new AccountState(status, failures, nextRetryAt, cooldownUntil, null, null, null, 0, null);
    }

    static ModelState row(String key, ModelStatus status, Instant cooldownUntil, String message) {
        return new ModelState(
                key,
                status,
                status == ModelStatus.PAUSED ? 0 : 1,
                cooldownUntil,
                0,
                null,
                "upstream_status",
                message,
                null,
                NOW,
                NOW);
    }

    @Nested
    class StatusTag {

        @Test
        void failureCountShowsAsErrorsTag() {
            assertThat(HealthView.statusTag(account(AccountStatus.OK, 3, null, null))
                            .text())
                    .isEqualTo("错误 3 次");
        }

        @Test
        void warningWithFailuresShowsTheCountToo() {
            assertThat(HealthView.statusTag(account(AccountStatus.WARNING, 2, null, null))
                            .text())
                    .isEqualTo("错误 2 次");
        }

        @Test
        void zeroFailuresShowTheNormalStatus() {
            HealthView.StatusTag tag = HealthView.statusTag(account(AccountStatus.OK, 0, null, null));
            assertThat(tag.text()).isEqualTo("ok");
            assertThat(tag.showsFailureCount()).isFalse();
        }

        @ParameterizedTest(name = "terminal {0} keeps its label")
        @EnumSource(
                value = AccountStatus.class,
                names = {"REVOKED", "ERROR", "PAUSED"})
        void terminalStatesAreNeverMaskedByTheCount(AccountStatus status) {
            HealthView.StatusTag tag = HealthView.statusTag(account(status, 5, null, null));
            assertThat(tag.text()).isEqualTo(status.wire());
            assertThat(tag.showsFailureCount()).isFalse();
        }
    }

    @Nested
    class CooldownBadge {

        @Test
        void remainingSecondsAreRoundedUp() {
            assertThat(HealthView.cooldownBadge(account(AccountStatus.OK, 1, null, NOW.plusMillis(9_200)), NOW))
                    .contains("冷却 10 秒");
        }

        @Test
        void wholeSecondsAreKept() {
            assertThat(HealthView.cooldownBadge(account(AccountStatus.OK, 1, null, NOW.plusSeconds(10)), NOW))
                    .contains("冷却 10 秒");
        }

        @Test
        void expiredCooldownShowsNoBadge() {
            assertThat(HealthView.cooldownBadge(account(AccountStatus.OK, 1, NOW, NOW), NOW))
                    .isEmpty();
            assertThat(HealthView.cooldownBadge(account(AccountStatus.OK, 1, null, NOW.minusSeconds(1)), NOW))
                    .isEmpty();
        }

        @Test
        void laterOfTheTwoAccountTimestampsCounts() {
            assertThat(HealthView.cooldownBadge(
                            account(AccountStatus.OK, 1, NOW.plusSeconds(30), NOW.plusSeconds(10)), NOW))
                    .contains("冷却 30 秒");
        }

        @Test
        void modelCooldownNeverShowsAsTheAccountBadge() {
            CredentialHealth health = new CredentialHealth(
                    account(AccountStatus.OK, 1, null, null),
                    Map.of(
                            "upstream-sol",
                            row("upstream-sol", ModelStatus.OK, NOW.plusSeconds(10), "upstream returned 429")));
            assertThat(HealthView.of(CredentialKind.API, MAPPINGS, health, NOW).cooldownBadge())
                    .isNull();
        }
    }

    @Nested
    class UnavailableModels {

        final List<ModelState> rows = List.of(
                row("upstream-sol", ModelStatus.OK, NOW.plusMillis(4_001), "upstream returned 429"),
                row("upstream-glm", ModelStatus.OK, NOW.minusSeconds(1), "upstream returned 503"),
                row("upstream-gone", ModelStatus.ERROR, null, "model not supported"),
                row("upstream-paused", ModelStatus.PAUSED, null, null));

        @Test
        void countIsCoolingNotExpiredPlusErrorPlusPaused() {
            List<UnavailableModel> unavailable = HealthView.unavailableModels(CredentialKind.API, MAPPINGS, rows, NOW);
            assertThat(unavailable)
                    .extracting(UnavailableModel::modelKey)
                    .containsExactly("upstream-gone", "upstream-paused", "upstream-sol");
            assertThat(HealthView.unavailableModelsBadge(unavailable.size())).contains("模型 3 不可用");
        }

        @Test
        void countAgreesWithTheStateRecord() {
            CredentialHealth health = CredentialHealth.HEALTHY;
            for (ModelState row : rows) {
                health = health.withModel(row);
            }
            assertThat((long) HealthView.of(CredentialKind.API, MAPPINGS, health, NOW)
                            .unavailableModels()
                            .size())
                    .isEqualTo(health.unavailableModelCount(NOW));
        }

        @Test
        void noUnavailableModelsMeansNoBadge() {
            assertThat(HealthView.unavailableModelsBadge(0)).isEmpty();
        }

        @Test
        void coolingRowShowsAliasesReasonRemainingTimeAndMessage() {
            UnavailableModel sol = HealthView.unavailableModels(CredentialKind.API, MAPPINGS, rows, NOW)
                    .get(2);
            assertThat(sol.aliases()).containsExactly("gpt-5.6-sol", "sol-latest");
            assertThat(sol.mappingRemoved()).isFalse();
            assertThat(sol.reason()).isEqualTo(UnavailableReason.COOLING);
            assertThat(sol.remainingSeconds()).isEqualTo(5L);
            assertThat(sol.lastFailureMessage()).isEqualTo("upstream returned 429");
            assertThat(sol.displayName()).isEqualTo("upstream-sol (gpt-5.6-sol, sol-latest)");
        }

        @Test
        void rowWhoseMappingWasDeletedIsMarked() {
            UnavailableModel gone = HealthView.unavailableModels(CredentialKind.API, MAPPINGS, rows, NOW)
                    .get(0);
            assertThat(gone.mappingRemoved()).isTrue();
            assertThat(gone.aliases()).isEmpty();
            assertThat(gone.reason()).isEqualTo(UnavailableReason.ERROR);
            assertThat(gone.remainingSeconds()).isNull();
            assertThat(gone.displayName()).isEqualTo("upstream-gone (已移除映射)");
        }

        @Test
        void pausedWinsOverCoolingAsTheReason() {
            List<UnavailableModel> unavailable = HealthView.unavailableModels(
                    CredentialKind.API,
                    MAPPINGS,
                    List.of(row("upstream-sol", ModelStatus.PAUSED, NOW.plusSeconds(3), "x")),
                    NOW);
            assertThat(unavailable.get(0).reason()).isEqualTo(UnavailableReason.PAUSED);
            assertThat(unavailable.get(0).remainingSeconds()).isEqualTo(3L);
        }

        @Test
        void officialAccountKeysAreNeverMarkedRemoved() {
            UnavailableModel model = HealthView.unavailableModels(
                            CredentialKind.OFFICIAL,
                            List.of(),
                            List.of(row("claude-opus-4-5", ModelStatus.ERROR, null, "x")),
                            NOW)
                    .get(0);
            assertThat(model.mappingRemoved()).isFalse();
            assertThat(model.displayName()).isEqualTo("claude-opus-4-5");
        }

        @Test
        void specTimelineAfterTheFirst429ShowsOneErrorAndOneUnavailableModelButNoCoolingBadge() {
            CredentialHealth health = new CredentialHealth(
                    new AccountState(
                            AccountStatus.OK, 1, null, null, "upstream_status", "upstream returned 429", "{}", 0, null),
                    Map.of(
                            "upstream-sol",
                            row("upstream-sol", ModelStatus.OK, NOW.plusSeconds(10), "upstream returned 429")));
            HealthView.AccountView view = HealthView.of(CredentialKind.API, MAPPINGS, health, NOW);
            assertThat(view.statusTag().text()).isEqualTo("错误 1 次");
            assertThat(view.unavailableModelsBadge()).isEqualTo("模型 1 不可用");
            assertThat(view.cooldownBadge()).isNull();
        }
    }

    @Nested
    class Reminders {

        static final String BUDGET_POOL_BODY = """
                {
                  "error": {
                    "message": "Budget pool quota has been exhausted. Please ask an administrator to increase the limit or select another budget pool.",
                    "type": "bad_response_status_code",
                    "param": "",
                    "code": "bad_response_status_code"
                  }
                }""";

        @Test
        void sensitiveWordsInTheStoredBody() {
            assertThat(HealthView.reminders(
                            "{\"error\":{\"code\":\"sensitive_words_detected\",\"message\":\"blocked\"}}",
                            "upstream returned 400"))
                    .containsExactly(Reminder.SENSITIVE_WORDS);
        }

        @Test
        void sensitiveWordsInTheMessage() {
            assertThat(HealthView.reminders(null, "relay said: sensitive_words_detected"))
                    .containsExactly(Reminder.SENSITIVE_WORDS);
        }

        @Test
        void sensitiveWordsReminderTextIsTheSpecLine() {
            assertThat(Reminder.SENSITIVE_WORDS.text()).isEqualTo("友情提醒：当前中转站似乎对项目存在关键词检测，您的项目可能存在敏感词，也不排除是中转站误判。");
        }

        @Test
        void budgetPoolInTheStoredBodyWithASynthesizedMessage() {
            assertThat(HealthView.reminders(BUDGET_POOL_BODY, "upstream returned 429"))
                    .containsExactly(Reminder.BUDGET_POOL);
        }

        @Test
        void budgetPoolInTheMessageIsCaseInsensitiveAndNotAPrefixMatch() {
            assertThat(HealthView.reminders(null, "Upstream: BUDGET POOL QUOTA HAS BEEN EXHAUSTED."))
                    .containsExactly(Reminder.BUDGET_POOL);
        }

        @Test
        void budgetPoolReminderTextIsTheSpecLine() {
            assertThat(Reminder.BUDGET_POOL.text()).isEqualTo("友情提醒：当前中转站公共池额度耗尽，并非你个人额度耗尽，请等待下一次公共池补充额度。");
        }

        @Test
        void bothRemindersCanShow() {
            assertThat(HealthView.reminders("sensitive_words_detected", "Budget pool quota has been exhausted"))
                    .containsExactly(Reminder.SENSITIVE_WORDS, Reminder.BUDGET_POOL);
        }

        @Test
        void noMarkerNoReminder() {
            assertThat(HealthView.reminders("{\"error\":{\"message\":\"quota exhausted\"}}", "quota exhausted"))
                    .isEmpty();
            assertThat(HealthView.reminders(null, null)).isEmpty();
        }

        @Test
        void accountViewCarriesTheReminders() {
            CredentialHealth health = CredentialHealth.HEALTHY.withAccount(new AccountState(
                    AccountStatus.ERROR,
                    0,
                    null,
                    null,
                    "semantic_response_failed",
                    "Budget pool quota has been exhausted.",
                    BUDGET_POOL_BODY,
                    1,
                    "fp"));
            assertThat(HealthView.of(CredentialKind.API, MAPPINGS, health, NOW).reminders())
                    .containsExactly(Reminder.BUDGET_POOL);
        }
    }

    @Nested
    class KnownModels {

        @Test
        void everyMappedModelIsListedIncludingNeverFailedOnes() {
            List<KnownModel> models = HealthView.knownModels(
                    Platform.OPENAI,
                    CredentialKind.API,
                    MAPPINGS,
                    List.of(row("upstream-glm", ModelStatus.OK, NOW.plusSeconds(5), "upstream returned 503")),
                    NOW);
            assertThat(models).extracting(KnownModel::modelKey).containsExactly("upstream-sol", "upstream-glm");
            KnownModel sol = models.get(0);
            assertThat(sol.status()).isEqualTo(ModelStatus.OK);
            assertThat(sol.hasRow()).isFalse();
            assertThat(sol.includedInClearAll()).isFalse();
            assertThat(sol.aliases()).containsExactly("gpt-5.6-sol", "sol-latest");
            KnownModel glm = models.get(1);
            assertThat(glm.hasRow()).isTrue();
            assertThat(glm.remainingSeconds()).isEqualTo(5L);
            assertThat(glm.includedInClearAll()).isTrue();
        }

        @Test
        void rowsWithoutAMappingAreListedAfterTheMappedOnes() {
            List<KnownModel> models = HealthView.knownModels(
                    Platform.OPENAI,
                    CredentialKind.API,
                    MAPPINGS,
                    List.of(row("upstream-gone", ModelStatus.ERROR, null, "x")),
                    NOW);
            assertThat(models)
                    .extracting(KnownModel::modelKey)
                    .containsExactly("upstream-sol", "upstream-glm", "upstream-gone");
            assertThat(models.get(2).mappingRemoved()).isTrue();
        }

        @Test
        void officialAccountListsThePlatformBaseline() {
            assertThat(HealthView.knownModels(Platform.CLAUDE, CredentialKind.OFFICIAL, List.of(), List.of(), NOW))
                    .extracting(KnownModel::modelKey)
                    .containsExactlyElementsOf(Platform.CLAUDE.baselineModels());
        }

        @Test
        void pausedModelsAreSkippedByClearAll() {
            List<KnownModel> models = HealthView.knownModels(
                    Platform.OPENAI,
                    CredentialKind.API,
                    MAPPINGS,
                    List.of(new ModelState(
                            "upstream-sol",
                            ModelStatus.PAUSED,
                            2,
                            NOW.plusSeconds(5),
                            0,
                            null,
                            "upstream_status",
                            "x",
                            null,
                            NOW,
                            NOW)),
                    NOW);
            assertThat(models.get(0).status()).isEqualTo(ModelStatus.PAUSED);
            assertThat(models.get(0).includedInClearAll()).isFalse();
        }
    }
}
