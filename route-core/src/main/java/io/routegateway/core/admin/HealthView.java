package io.routegateway.core.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;

/**
 * What the admin surface shows about one credential's health, derived purely from its state: the
 * status tag ({@code 错误 N 次}), the account cooldown badge ({@code 冷却 N 秒}), the
 * unavailable-models badge ({@code 模型 N 不可用}) with its per-model panel, the two reminders, and
 * the 模型状态 listing of every known model.
 */
public final class HealthView {

    public static final String SENSITIVE_WORDS_MARKER = "sensitive_words_detected";
    public static final String BUDGET_POOL_MARKER = "Budget pool quota has been exhausted";
    public static final String MAPPING_REMOVED = "已移除映射";

    private HealthView() {}

    /** An extra line in the status tag's hover panel. */
    public enum Reminder {
        /** The relay's own keyword filter fired; not a broken account. */
        SENSITIVE_WORDS("友情提醒：当前中转站似乎对项目存在关键词检测，您的项目可能存在敏感词，也不排除是中转站误判。"),
        /** The relay's shared budget pool ran dry, not the user's own quota (shown in blue). */
        BUDGET_POOL("友情提醒：当前中转站公共池额度耗尽，并非你个人额度耗尽，请等待下一次公共池补充额度。");

        private final String text;

        Reminder(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** Why a model is unavailable; a paused row that also cools reports paused, then error, then cooling. */
    public enum UnavailableReason {
        PAUSED,
        ERROR,
        COOLING;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The status tag.
     *
     * @param text {@code 错误 N 次} when the failure count shows, else the status's wire name for
     *     the console to localize
     */
    public record StatusTag(AccountStatus status, int failureCount, String text) {
        public boolean showsFailureCount() {
            return failureCount > 0;
        }
    }

    /**
     * One row of the 模型 N 不可用 panel.
     *
     * @param aliases client-facing names that reach the key (empty for official / mapping-less
     *     accounts and for removed mappings)
     * @param mappingRemoved no mapping reaches this key any more ({@code 已移除映射})
     * @param remainingSeconds seconds left on the model cooldown, rounded up; null when not cooling
     * @param lastFailureMessage may be null
     */
    public record UnavailableModel(
            String modelKey,
            List<String> aliases,
            boolean mappingRemoved,
            UnavailableReason reason,
            Long remainingSeconds,
            String lastFailureMessage) {
        public UnavailableModel {
            aliases = List.copyOf(aliases);
        }

        /** {@code upstream-sol (gpt-5.6-sol)} or {@code upstream-sol (已移除映射)}. */
        public String displayName() {
            return HealthView.displayName(modelKey, aliases, mappingRemoved);
        }
    }

    /**
     * One row of the 模型状态 section: every known model, healthy ones included so they can be
     * paused pre-emptively.
     *
     * @param hasRow a {@code route_credential_models} row exists (failure or pause)
     * @param remainingSeconds seconds left on the model cooldown, rounded up; null when not cooling
     * @param includedInClearAll 全部解除 issues a clear for it: something to clear and not paused
     */
    public record KnownModel(
            String modelKey,
            List<String> aliases,
            boolean mappingRemoved,
            ModelStatus status,
            boolean hasRow,
            Long remainingSeconds,
            int transientFailureCount,
            int semanticFailureStreakCount,
            String lastFailureKind,
            String lastFailureMessage,
            boolean includedInClearAll) {
        public KnownModel {
            aliases = List.copyOf(aliases);
        }

        public String displayName() {
            return HealthView.displayName(modelKey, aliases, mappingRemoved);
        }
    }

    /**
     * Everything the credential row and its hover panels show.
     *
     * @param cooldownBadge {@code 冷却 N 秒}, null when the account itself is not cooling
     * @param unavailableModelsBadge {@code 模型 N 不可用}, null when every model is available
     */
    public record AccountView(
            StatusTag statusTag,
            String cooldownBadge,
            String unavailableModelsBadge,
            List<UnavailableModel> unavailableModels,
            List<Reminder> reminders) {
        public AccountView {
            unavailableModels = List.copyOf(unavailableModels);
            reminders = List.copyOf(reminders);
        }
    }

    public static AccountView of(
            CredentialKind kind, List<ModelMapping> mappings, CredentialHealth health, Instant now) {
        List<UnavailableModel> unavailable =
                unavailableModels(kind, mappings, health.models().values(), now);
        AccountState account = health.account();
        return new AccountView(
                statusTag(account),
                cooldownBadge(account, now).orElse(null),
                unavailableModelsBadge(unavailable.size()).orElse(null),
                unavailable,
                reminders(account.lastFailureResponseJson(), account.lastFailureMessage()));
    }

    /**
     * {@code 错误 N 次} while the account's transient failure count is above 0, except that the
     * terminal states revoked, error and paused always keep their own label.
     */
    public static StatusTag statusTag(AccountState account) {
        AccountStatus status = account.status();
        int count = account.transientFailureCount();
        if (status.isTerminalLabel() || count <= 0) {
            return new StatusTag(status, 0, status.wire());
        }
        return new StatusTag(status, count, "错误 " + count + " 次");
    }

    /** Seconds left on the account-level cooldown (the later timestamp), rounded up; empty when not cooling. */
    public static OptionalLong accountCooldownSeconds(AccountState account, Instant now) {
        return remainingSeconds(account.coolingUntil(), now);
    }

    /** {@code 冷却 N 秒}: the account-level cooldown only; model cooldowns never show here. */
    public static Optional<String> cooldownBadge(AccountState account, Instant now) {
        OptionalLong seconds = accountCooldownSeconds(account, now);
        return seconds.isPresent() ? Optional.of("冷却 " + seconds.getAsLong() + " 秒") : Optional.empty();
    }

    /** {@code 模型 N 不可用} for N above 0. */
    public static Optional<String> unavailableModelsBadge(int count) {
        return count > 0 ? Optional.of("模型 " + count + " 不可用") : Optional.empty();
    }

    /**
     * The unavailable models — cooling and not yet expired, error, or paused — ordered by model key,
     * with the detail the hover panel shows.
     */
    public static List<UnavailableModel> unavailableModels(
            CredentialKind kind, List<ModelMapping> mappings, Collection<ModelState> rows, Instant now) {
        List<UnavailableModel> out = new ArrayList<>();
        List<ModelState> sorted = new ArrayList<>(rows == null ? List.of() : rows);
        sorted.sort(Comparator.comparing(ModelState::modelKey));
        for (ModelState row : sorted) {
            if (!row.isUnavailableAt(now)) {
                continue;
            }
            UnavailableReason reason = row.status() == ModelStatus.PAUSED
                    ? UnavailableReason.PAUSED
                    : row.status() == ModelStatus.ERROR ? UnavailableReason.ERROR : UnavailableReason.COOLING;
            out.add(new UnavailableModel(
                    row.modelKey(),
                    ModelKeys.aliases(kind, mappings, row.modelKey()),
                    mappingRemoved(kind, mappings, row.modelKey()),
                    reason,
                    boxed(remainingSeconds(row.cooldownUntil(), now)),
                    row.lastFailureMessage()));
        }
        return out;
    }

    /**
     * The reminders for a stored failure: each phrase is looked for case-insensitively as a
     * substring of both the stored body and the message (a status failure stores a synthesized
     * message, so the original wording may live only in the body).
     */
    public static List<Reminder> reminders(String lastFailureResponseJson, String lastFailureMessage) {
        List<Reminder> out = new ArrayList<>();
        if (containsIgnoreCase(lastFailureResponseJson, SENSITIVE_WORDS_MARKER)
                || containsIgnoreCase(lastFailureMessage, SENSITIVE_WORDS_MARKER)) {
            out.add(Reminder.SENSITIVE_WORDS);
        }
        if (containsIgnoreCase(lastFailureResponseJson, BUDGET_POOL_MARKER)
                || containsIgnoreCase(lastFailureMessage, BUDGET_POOL_MARKER)) {
            out.add(Reminder.BUDGET_POOL);
        }
        return out;
    }

    /**
     * Every known model of a credential for the 模型状态 section: the mapped upstream keys (or the
     * platform baseline for official and mapping-less accounts) in mapping order, then any other
     * key that has a row, by key. Models without a row are listed as ok.
     */
    public static List<KnownModel> knownModels(
            Platform platform,
            CredentialKind kind,
            List<ModelMapping> mappings,
            Collection<ModelState> rows,
            Instant now) {
        Map<String, ModelState> byKey = new TreeMap<>();
        if (rows != null) {
            for (ModelState row : rows) {
                byKey.put(row.modelKey(), row);
            }
        }
        List<KnownModel> out = new ArrayList<>();
        for (String key : ModelKeys.listedModelKeys(platform, kind, mappings, byKey.keySet())) {
            ModelState row = byKey.get(key);
            List<String> aliases = ModelKeys.aliases(kind, mappings, key);
            boolean removed = mappingRemoved(kind, mappings, key);
            if (row == null) {
                out.add(new KnownModel(key, aliases, removed, ModelStatus.OK, false, null, 0, 0, null, null, false));
            } else {
                out.add(new KnownModel(
                        key,
                        aliases,
                        removed,
                        row.status(),
                        true,
                        boxed(remainingSeconds(row.cooldownUntil(), now)),
                        row.transientFailureCount(),
                        row.semanticFailureStreakCount(),
                        row.lastFailureKind(),
                        row.lastFailureMessage(),
                        row.status() != ModelStatus.PAUSED && row.hasFailureState()));
            }
        }
        return out;
    }

    /** No mapping reaches the key any more; never for official and mapping-less accounts. */
    static boolean mappingRemoved(CredentialKind kind, List<ModelMapping> mappings, String modelKey) {
        return ModelKeys.requestNameFor(kind, mappings, modelKey).isEmpty();
    }

    /** Remaining time until {@code until}, in whole seconds rounded up; empty once expired. */
    static OptionalLong remainingSeconds(Instant until, Instant now) {
        if (until == null || !until.isAfter(now)) {
            return OptionalLong.empty();
        }
        Duration left = Duration.between(now, until);
        return OptionalLong.of(left.getSeconds() + (left.getNano() > 0 ? 1 : 0));
    }

    private static Long boxed(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }

    private static String displayName(String modelKey, List<String> aliases, boolean mappingRemoved) {
        if (mappingRemoved) {
            return modelKey + " (" + MAPPING_REMOVED + ")";
        }
        List<String> shown =
                aliases.stream().filter(alias -> !alias.equals(modelKey)).toList();
        return shown.isEmpty() ? modelKey : modelKey + " (" + String.join(", ", shown) + ")";
    }

    private static boolean containsIgnoreCase(String text, String phrase) {
        return text != null && text.toLowerCase(Locale.ROOT).contains(phrase.toLowerCase(Locale.ROOT));
    }
}
