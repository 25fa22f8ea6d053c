package io.routegateway.core.state;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialEvent.AllModelsCleared;
import io.routegateway.core.event.CredentialEvent.AttemptSucceeded;
import io.routegateway.core.event.CredentialEvent.CredentialPaused;
import io.routegateway.core.event.CredentialEvent.CredentialRestored;
import io.routegateway.core.event.CredentialEvent.CredentialResumed;
import io.routegateway.core.event.CredentialEvent.ModelCleared;
import io.routegateway.core.event.CredentialEvent.ModelPaused;
import io.routegateway.core.event.CredentialEvent.ModelResumed;
import io.routegateway.core.event.CredentialEvent.ModelTestSucceeded;
import io.routegateway.core.event.CredentialEvent.PermanentFailureRecorded;
import io.routegateway.core.event.CredentialEvent.QuotaExhaustionRecorded;
import io.routegateway.core.event.CredentialEvent.ScheduledReactivationTriggered;
import io.routegateway.core.event.CredentialEvent.TransientFailureRecorded;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.FailureScope;
import io.routegateway.core.failure.Fingerprint;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.quota.UsageLimits;

/**
 * The one state transition of the reliability spec: {@code (profile, state, event) -> state}.
 * state-service runs it under a row lock inside the transaction that writes the result; every
 * gateway runs it on its local view the moment it sees its own outcome. Both evaluate time at the
 * event's {@code occurred_at}, so the same event gives the same state wherever and whenever it is
 * applied (a replay after a restart computes the same cooldown windows).
 */
public final class StateTransition {

    private StateTransition() {}

    public static Transition apply(CredentialProfile profile, CredentialHealth health, CredentialEvent event) {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(event, "event");
        CredentialHealth next = nextState(profile, health, event);
        return new Transition(next, diff(health, next, event));
    }

    private static CredentialHealth nextState(
            CredentialProfile profile, CredentialHealth health, CredentialEvent event) {
        Instant at = event.occurredAt();
        if (event instanceof TransientFailureRecorded failure) {
            return transientFailure(profile, health, failure, at);
        }
        if (event instanceof QuotaExhaustionRecorded quota) {
            return quotaExhaustion(profile.failurePolicy(), health, quota);
        }
        if (event instanceof PermanentFailureRecorded permanent) {
            return permanentFailure(health, permanent);
        }
        if (event instanceof AttemptSucceeded success) {
            return successClearing(health, success.modelKey(), at);
        }
        if (event instanceof ModelTestSucceeded test) {
            return modelTestSuccess(health, test, at);
        }
        if (event instanceof ScheduledReactivationTriggered) {
            return scheduledReactivation(health);
        }
        if (event instanceof ModelPaused pause) {
            ModelState row = health.model(pause.modelKey())
                    .orElseGet(() -> ModelState.created(pause.modelKey(), ModelStatus.PAUSED, at));
            return health.withModel(row.withStatus(ModelStatus.PAUSED, at));
        }
        if (event instanceof ModelResumed resume) {
            return health.model(resume.modelKey())
                    .filter(row -> row.status() == ModelStatus.PAUSED)
                    .map(row -> {
                        ModelState resumed = row.withStatus(ModelStatus.OK, at);
                        // a resumed row with nothing to remember goes away: healthy rows are not kept
                        return resumed.hasFailureState()
                                ? health.withModel(resumed)
                                : health.withoutModel(row.modelKey());
                    })
                    .orElse(health);
        }
        if (event instanceof ModelCleared clear) {
            return health.model(clear.modelKey())
                    .map(row -> clearModel(health, row, at))
                    .orElse(health);
        }
        if (event instanceof AllModelsCleared) {
            CredentialHealth next = health;
            for (ModelState row : health.models().values()) {
                // skip the user's pauses and models with nothing to clear
                if (row.status() != ModelStatus.PAUSED && row.hasFailureState()) {
                    next = next.withoutModel(row.modelKey());
                }
            }
            return next;
        }
        if (event instanceof CredentialPaused) {
            AccountStatus status = health.account().status();
            return status == AccountStatus.REVOKED
                    ? health
                    : health.withAccount(health.account().withStatus(AccountStatus.PAUSED));
        }
        if (event instanceof CredentialResumed) {
            AccountState account = health.account();
            if (account.status() != AccountStatus.PAUSED) {
                return health;
            }
            // a blacklisted account the person paused: their resume is the verification it awaited
            return health.withAccount(
                    AccountState.BLACKLISTED_KIND.equals(account.lastFailureKind())
                            ? AccountState.HEALTHY
                            : account.withStatus(AccountStatus.OK));
        }
        if (event instanceof CredentialRestored) {
            return health.withAccount(AccountState.HEALTHY);
        }
        throw new IllegalArgumentException(
                "unhandled event type " + event.getClass().getName());
    }

    /**
     * Retries exhausted on a transient failure. Model scope writes the model row (count, cooldown,
     * fingerprinted streak) and only the account's count and details; account scope writes both
     * account timestamps and clears the account streak; a model failure that leaves every
     * serviceable model unavailable escalates to an account cooldown in the same step.
     */
    private static CredentialHealth transientFailure(
            CredentialProfile profile, CredentialHealth health, TransientFailureRecorded failure, Instant at) {
        if (isPausedOrRevoked(health.account())) {
            // "accounts already revoked or paused are never modified": a failing test on such an
            // account answers the user, it neither counts nor flips a model row
            return health;
        }
        FailurePolicy policy = profile.failurePolicy();
        Integer cooldownSeconds = policy.effectiveCooldownSeconds();
        Instant cooldownEnd = cooldownSeconds == null ? null : at.plusSeconds(cooldownSeconds);
        String message = FailureText.truncateMessage(failure.message());
        String body = FailureText.truncateResponse(failure.responseBody());
        AccountState account = health.account();
        // unknown labels and model-less failures park the account (over-parking is recoverable)
        boolean accountScoped = FailureScope.chargesAccount(failure.kind(), failure.status(), failure.modelKey());

        CredentialHealth next;
        if (accountScoped) {
            next = health.withAccount(new AccountState(
                    account.status(),
                    account.transientFailureCount() + 1,
                    cooldownEnd == null ? account.nextRetryAt() : cooldownEnd,
                    cooldownEnd == null ? account.cooldownUntil() : cooldownEnd,
                    failure.kind(),
                    message,
                    body,
                    0,
                    null));
        } else {
            ModelState row = health.model(failure.modelKey())
                    .orElseGet(() -> ModelState.created(failure.modelKey(), ModelStatus.OK, at));
            String fingerprint = Fingerprint.of(failure.status(), failure.message());
            int threshold = policy.semanticErrorThreshold();
            int streak = fingerprint.equals(row.semanticFailureStreakFingerprint())
                    ? Math.min(row.semanticFailureStreakCount() + 1, threshold)
                    : 1;
            ModelStatus status = row.status();
            if (streak >= threshold && policy.errorStatusEnabled() && status == ModelStatus.OK) {
                status = ModelStatus.ERROR;
            }
            ModelState written = new ModelState(
                    row.modelKey(),
                    status,
                    row.transientFailureCount() + 1,
                    cooldownEnd == null ? row.cooldownUntil() : cooldownEnd,
                    streak,
                    fingerprint,
                    failure.kind(),
                    message,
                    body,
                    row.createdAt(),
                    at);
            next = health.withModel(written)
                    .withAccount(new AccountState(
                            account.status(),
                            account.transientFailureCount() + 1,
                            account.nextRetryAt(),
                            account.cooldownUntil(),
                            failure.kind(),
                            message,
                            body,
                            account.semanticFailureStreakCount(),
                            account.semanticFailureStreakFingerprint()));
            if (cooldownEnd != null && everyServiceableModelUnavailable(profile, next, at)) {
                AccountState escalated = next.account();
                next = next.withAccount(new AccountState(
                        escalated.status(),
                        escalated.transientFailureCount(),
                        cooldownEnd,
                        cooldownEnd,
                        escalated.lastFailureKind(),
                        escalated.lastFailureMessage(),
                        escalated.lastFailureResponseJson(),
                        escalated.semanticFailureStreakCount(),
                        escalated.semanticFailureStreakFingerprint()));
            }
        }
        return keepBlacklistMarker(account, blacklistIfThresholdExceeded(profile, next, failure));
    }

    /**
     * The escalation check: the denominator is {@link ModelKeys#escalationModelKeys} (only models
     * the account can still serve) minus manual pauses; escalate only when each remaining one is
     * cooling or in error. An account whose models cannot be enumerated never escalates here.
     */
    static boolean everyServiceableModelUnavailable(CredentialProfile profile, CredentialHealth health, Instant at) {
        Optional<Set<String>> serviceable =
                ModelKeys.escalationModelKeys(profile.platform(), profile.kind(), profile.modelMappings());
        if (serviceable.isEmpty()) {
            return false;
        }
        int counted = 0;
        for (String key : serviceable.get()) {
            ModelState row = health.models().get(key);
            if (row != null && row.status() == ModelStatus.PAUSED) {
                continue;
            }
            counted++;
            if (row == null || !row.isUnavailableAt(at)) {
                return false;
            }
        }
        return counted > 0;
    }

    /**
     * The optional consecutive-failure threshold from runtime settings (seed B's blacklist: "removed
     * after consecutive failures exceed the threshold"): the failure that takes the count above the
     * threshold flips the account to error, so threshold N tolerates N consecutive failures. The
     * flip is marked {@link AccountState#BLACKLISTED_KIND} with a message saying why, since seed B's
     * blacklist "does not recover automatically" while other error flips do.
     */
    private static CredentialHealth blacklistIfThresholdExceeded(
            CredentialProfile profile, CredentialHealth health, TransientFailureRecorded failure) {
        AccountState account = health.account();
        if (profile.blacklistThreshold() > 0
                && account.status() == AccountStatus.OK
                && account.transientFailureCount() > profile.blacklistThreshold()) {
            String reason = account.transientFailureCount()
                    + " consecutive failures exceeded the blacklist threshold of "
                    + profile.blacklistThreshold() + "; restore the credential after verifying it (last failure: "
                    + failure.kind() + (failure.message() == null ? "" : ": " + failure.message()) + ")";
            return health.withAccount(account.withStatus(AccountStatus.ERROR)
                    .withFailureDetail(
                            AccountState.BLACKLISTED_KIND,
                            FailureText.truncateMessage(reason),
                            account.lastFailureResponseJson()));
        }
        return health;
    }

    /**
     * A blacklisted account stays marked whatever happens to it until a person acts (restore, a
     * test they run, resume): a later failure (a failing manual test, a quota answer) or an
     * in-flight success must not turn it into an error that recovers by itself.
     */
    private static CredentialHealth keepBlacklistMarker(AccountState before, CredentialHealth next) {
        AccountState after = next.account();
        if (!before.isBlacklisted() || after.status() != AccountStatus.ERROR) {
            return next;
        }
        return next.withAccount(after.withFailureDetail(
                before.lastFailureKind(), before.lastFailureMessage(), before.lastFailureResponseJson()));
    }

    /**
     * The quota channel: one semantic failure with threshold 1 flips the account to error and clears
     * the transient count and both timestamps. Revoked and paused accounts are never modified.
     *
     * <p>When the upstream said when its usage window resets ({@code resets_at}, an official
     * account's usage-limit signal) the account is not flipped: it cools until that instant instead
     * of the fixed window — both account timestamps set to it, bounded by {@link
     * UsageLimits#MAX_COOLDOWN} after the event (a reset already past writes no cooldown). This
     * holds whether or not the account's own failure cooldown is on: the wait is the upstream's,
     * not a configured guess. Model rows are untouched (quota is an account property).
     */
    private static CredentialHealth quotaExhaustion(
            FailurePolicy policy, CredentialHealth health, QuotaExhaustionRecorded quota) {
        AccountState account = health.account();
        if (isPausedOrRevoked(account)) {
            return health;
        }
        String fingerprint = Fingerprint.of(quota.status(), quota.message());
        int threshold = 1;
        int streak = fingerprint.equals(account.semanticFailureStreakFingerprint())
                ? Math.min(account.semanticFailureStreakCount() + 1, threshold)
                : 1;
        Instant until = null;
        AccountStatus status;
        if (quota.resetsAt() != null) {
            until = resetCooldownEnd(quota.occurredAt(), quota.resetsAt());
            status = account.status();
        } else {
            status = streak >= threshold && policy.errorStatusEnabled() ? AccountStatus.ERROR : account.status();
        }
        return keepBlacklistMarker(
                account,
                health.withAccount(new AccountState(
                        status,
                        0,
                        until,
                        until,
                        FailureKind.SEMANTIC_RESPONSE_FAILED.label(),
                        FailureText.truncateMessage(quota.message()),
                        FailureText.truncateResponse(quota.responseBody()),
                        streak,
                        fingerprint)));
    }

    /**
     * When a usage-limit cooldown ends: the reported reset, at most {@link UsageLimits#MAX_COOLDOWN}
     * after the event; null when the reset is not after the event (nothing left to wait for).
     */
    public static Instant resetCooldownEnd(Instant occurredAt, Instant resetsAt) {
        if (resetsAt == null || !resetsAt.isAfter(occurredAt)) {
            return null;
        }
        Instant bound = occurredAt.plus(UsageLimits.MAX_COOLDOWN);
        return resetsAt.isAfter(bound) ? bound : resetsAt;
    }

    /** The credential itself is void: straight to revoked, no backoff window. */
    private static CredentialHealth permanentFailure(CredentialHealth health, PermanentFailureRecorded permanent) {
        AccountState account = health.account();
        return health.withAccount(new AccountState(
                AccountStatus.REVOKED,
                account.transientFailureCount(),
                account.nextRetryAt(),
                account.cooldownUntil(),
                permanent.kind(),
                FailureText.truncateMessage(permanent.message()),
                FailureText.truncateResponse(permanent.responseBody()),
                account.semanticFailureStreakCount(),
                account.semanticFailureStreakFingerprint()));
    }

    /**
     * Success clearing: the account's failure traces are zeroed (status untouched); only the model
     * this request hit loses its row, a paused row keeps its pause with failures reset. A blacklisted
     * account keeps its marker (an in-flight request that succeeds after the flip is no verification).
     */
    static CredentialHealth successClearing(CredentialHealth health, String modelKey, Instant at) {
        CredentialHealth next = keepBlacklistMarker(
                health.account(), health.withAccount(health.account().clearedOfFailures()));
        if (modelKey == null) {
            return next;
        }
        return next.model(modelKey).map(row -> clearModel(next, row, at)).orElse(next);
    }

    private static CredentialHealth clearModel(CredentialHealth health, ModelState row, Instant at) {
        if (row.status() == ModelStatus.PAUSED) {
            // a pause with no failures to reset stays as it is: nothing to write, nothing to publish
            return row.hasFailureState() ? health.withModel(row.clearedOfFailures(ModelStatus.PAUSED, at)) : health;
        }
        return health.withoutModel(row.modelKey());
    }

    /**
     * A passing model test clears like a success and pulls error/warning back to ok. An explicit
     * test against the single account additionally performs full recovery: account columns cleared
     * and status back to ok. Only a person's test lifts what a person must decide — a pause (the
     * explicit test is how a user learns a paused account came back) or a blacklist (seed B's
     * "manual verification"); a healthcheck probe ({@code automatic}) leaves both, since automation
     * may only undo automation. Sibling model rows and model pauses stay; a revocation is only
     * undone by restore.
     */
    private static CredentialHealth modelTestSuccess(CredentialHealth health, ModelTestSucceeded test, Instant at) {
        CredentialHealth next = successClearing(health, test.modelKey(), at);
        AccountStatus status = next.account().status();
        boolean byAPerson = test.explicitTest() && !test.automatic();
        boolean recovers = status != AccountStatus.REVOKED && (byAPerson || !awaitsAPerson(health.account()));
        return recovers ? next.withAccount(AccountState.HEALTHY) : next;
    }

    /**
     * Unconditional reactivation at a scheduled time (the spec's {@code status != 'revoked'}):
     * written back to ok with every trace cleared. A paused or blacklisted account is left as it is
     * ("a scheduled job does not overrule" the user's pause; a blacklist "does not recover
     * automatically") — a trigger decided just before a pause can still arrive after it. Paused
     * model rows survive: automation never lifts a model pause.
     */
    private static CredentialHealth scheduledReactivation(CredentialHealth health) {
        if (health.account().status() == AccountStatus.REVOKED || awaitsAPerson(health.account())) {
            return health;
        }
        Map<String, ModelState> kept = new TreeMap<>();
        for (ModelState row : health.models().values()) {
            if (row.status() == ModelStatus.PAUSED) {
                kept.put(row.modelKey(), row);
            }
        }
        return new CredentialHealth(AccountState.HEALTHY, kept);
    }

    /** Paused by a person or blacklisted: what only a person's action lifts, never automation. */
    private static boolean awaitsAPerson(AccountState account) {
        return account.status() == AccountStatus.PAUSED || account.isBlacklisted();
    }

    private static boolean isPausedOrRevoked(AccountState account) {
        return account.status() == AccountStatus.PAUSED || account.status() == AccountStatus.REVOKED;
    }

    private static List<HealthChange> diff(CredentialHealth before, CredentialHealth after, CredentialEvent event) {
        List<HealthChange> changes = new ArrayList<>();
        String cause = cause(event);
        Instant at = event.occurredAt();
        String accountBefore = condition(before.account(), at);
        String accountAfter = condition(after.account(), at);
        if (!accountBefore.equals(accountAfter)
                || !Objects.equals(
                        before.account().coolingUntil(), after.account().coolingUntil())) {
            changes.add(new HealthChange(
                    null,
                    accountBefore,
                    accountAfter,
                    cause,
                    "cooling".equals(accountAfter) ? after.account().coolingUntil() : null,
                    detail(event)));
        }
        Set<String> keys = new TreeSet<>(before.models().keySet());
        keys.addAll(after.models().keySet());
        for (String key : keys) {
            ModelState rowBefore = before.models().get(key);
            ModelState rowAfter = after.models().get(key);
            String from = condition(rowBefore, at);
            String to = condition(rowAfter, at);
            Instant untilBefore = rowBefore == null ? null : rowBefore.cooldownUntil();
            Instant untilAfter = rowAfter == null ? null : rowAfter.cooldownUntil();
            if (!from.equals(to) || ("cooling".equals(to) && !Objects.equals(untilBefore, untilAfter))) {
                changes.add(new HealthChange(
                        key, from, to, cause, "cooling".equals(to) ? untilAfter : null, detail(event)));
            }
        }
        return changes;
    }

    static String condition(AccountState account, Instant at) {
        if (account.status() == AccountStatus.OK && account.isCoolingAt(at)) {
            return "cooling";
        }
        if (account.status() == AccountStatus.OK && account.transientFailureCount() > 0) {
            return "failing";
        }
        return account.status().wire();
    }

    static String condition(ModelState row, Instant at) {
        if (row == null) {
            return "absent";
        }
        if (row.status() == ModelStatus.OK && row.isCoolingAt(at)) {
            return "cooling";
        }
        if (row.status() == ModelStatus.OK) {
            // a row exists only because of failures; its cooldown has passed
            return "failing";
        }
        return row.status().wire();
    }

    private static String cause(CredentialEvent event) {
        String kind = null;
        if (event instanceof TransientFailureRecorded failure) {
            kind = failure.kind();
        } else if (event instanceof PermanentFailureRecorded permanent) {
            kind = permanent.kind();
        } else if (event instanceof QuotaExhaustionRecorded) {
            kind = FailureKind.SEMANTIC_RESPONSE_FAILED.label();
        }
        return kind == null ? event.type() : event.type() + "/" + kind;
    }

    private static String detail(CredentialEvent event) {
        if (event instanceof TransientFailureRecorded failure) {
            return FailureText.truncateMessage(failure.message());
        }
        if (event instanceof PermanentFailureRecorded permanent) {
            return FailureText.truncateMessage(permanent.message());
        }
        if (event instanceof QuotaExhaustionRecorded quota) {
            return FailureText.truncateMessage(quota.message());
        }
        if (event instanceof ScheduledReactivationTriggered scheduled) {
            return "scheduled recovery at " + scheduled.scheduledTime();
        }
        if (event instanceof ModelTestSucceeded test) {
            return test.automatic()
                    ? "healthcheck probe passed"
                    : test.explicitTest() ? "explicit model test passed" : "model test passed";
        }
        return null;
    }
}
