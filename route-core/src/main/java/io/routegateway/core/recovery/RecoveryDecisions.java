package io.routegateway.core.recovery;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelKeys;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.state.AccountState;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.ModelStatus;

/** The auto-recovery scheduler's decisions: who needs recovery, when a schedule fires, what to probe. */
public final class RecoveryDecisions {

    private static final Comparator<ModelState> OLDEST_FIRST = Comparator.comparing(
                    ModelState::updatedAt, Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))
            .thenComparing(ModelState::modelKey);

    private RecoveryDecisions() {}

    /**
     * The spec's {@code needs_recovery} over the status columns: a revoked account never takes part,
     * and neither does a paused one ("paused is the user's will and a scheduled job does not
     * overrule it: automation may only undo automation" — it waits for the person's resume or a test
     * they run); otherwise any status other than ok, any lingering backoff or cooldown timestamp, or
     * any non-paused model row.
     */
    public static boolean needsRecovery(
            AccountStatus status, Instant nextRetryAt, Instant cooldownUntil, boolean hasModelFailures) {
        if (status == AccountStatus.REVOKED || status == AccountStatus.PAUSED) {
            return false;
        }
        return status != AccountStatus.OK || nextRetryAt != null || cooldownUntil != null || hasModelFailures;
    }

    /**
     * {@link #needsRecovery(AccountStatus, Instant, Instant, boolean)} for one account, which also
     * leaves out a blacklisted one (seed B: it "requires manual verification and does not recover
     * automatically"); the other error flips (fingerprint streak, quota) do recover.
     */
    public static boolean needsRecovery(CredentialHealth health) {
        AccountState account = health.account();
        if (account.isBlacklisted()) {
            return false;
        }
        return needsRecovery(
                account.status(), account.nextRetryAt(), account.cooldownUntil(), health.hasModelFailures());
    }

    /**
     * Whether some configured time falls in the half-open interval (previous tick, this tick],
     * dates enumerated day by day in this tick's zone. Across midnight (23:59:50 → 00:00:20 fires
     * 00:00) and after a multi-day sleep (fires once — the result is one answer per tick, not one per
     * missed day).
     *
     * <p>A null previous tick is the first tick after start: nothing fires retroactively, the
     * caller remembers this tick and the next one opens the window. A tick that is not after the
     * previous one (clock stepped back) fires nothing.
     *
     * <p>Daylight-saving time: a time inside a spring-forward gap fires when the clock has jumped
     * past it (02:30 in a skipped hour fires at 03:30); a time repeated by a fall-back fires once,
     * at its first occurrence.
     */
    public static boolean scheduledTriggerFires(
            List<LocalTime> times, ZonedDateTime previousTick, ZonedDateTime thisTick) {
        return scheduledTrigger(times, previousTick, thisTick).isPresent();
    }

    /**
     * The configured time whose occurrence is the latest one in (previous tick, this tick], or
     * empty when none falls in it. Same rules as {@link #scheduledTriggerFires}.
     */
    public static Optional<LocalTime> scheduledTrigger(
            List<LocalTime> times, ZonedDateTime previousTick, ZonedDateTime thisTick) {
        if (times == null || times.isEmpty() || previousTick == null || thisTick == null) {
            return Optional.empty();
        }
        Instant from = previousTick.toInstant();
        Instant to = thisTick.toInstant();
        if (!to.isAfter(from)) {
            return Optional.empty();
        }
        ZoneId zone = thisTick.getZone();
        LocalDate last = thisTick.toLocalDate();
        LocalDate first = previousTick.withZoneSameInstant(zone).toLocalDate();
        // Any window longer than a day contains every time of the day before `last`, so the latest
        // occurrence always lies within the last two dates; older dates cannot change the answer.
        LocalDate floor = last.minusDays(2);
        if (first.isBefore(floor)) {
            first = floor;
        }
        LocalTime best = null;
        Instant bestAt = null;
        for (LocalDate date = first; !date.isAfter(last); date = date.plusDays(1)) {
            for (LocalTime time : times) {
                Instant at = ZonedDateTime.of(date, time, zone).toInstant();
                if (at.isAfter(from) && !at.isAfter(to) && (bestAt == null || at.isAfter(bestAt))) {
                    best = time;
                    bestAt = at;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Whether a healthcheck probe is due: never probed (or restarted — the clock is in memory), or
     * at least the interval has passed since the last probe.
     */
    public static boolean healthcheckDue(Instant lastProbe, int intervalMinutes, Instant now) {
        if (intervalMinutes < 1) {
            throw new IllegalArgumentException("interval must be at least one minute");
        }
        return lastProbe == null || !now.isBefore(lastProbe.plus(Duration.ofMinutes(intervalMinutes)));
    }

    /**
     * The requested model a healthcheck probes: the model row most in need of it — not paused,
     * cooldown expired (null or at/before now), oldest {@code updated_at} (model key breaks ties) —
     * mapped back to a requested name. A row no mapping reaches any more cannot be requested and
     * is skipped. Without such a row: the first non-fallback mapping, else the platform's probe
     * model — never empty, so a due account is always probed.
     */
    public static String probeModel(
            Platform platform,
            CredentialKind kind,
            List<ModelMapping> mappings,
            Collection<ModelState> rows,
            Instant now) {
        List<ModelState> candidates = new ArrayList<>();
        if (rows != null) {
            for (ModelState row : rows) {
                if (row.status() != ModelStatus.PAUSED && !row.isCoolingAt(now)) {
                    candidates.add(row);
                }
            }
        }
        candidates.sort(OLDEST_FIRST);
        for (ModelState row : candidates) {
            Optional<String> requested = ModelKeys.requestNameFor(kind, mappings, row.modelKey());
            if (requested.isPresent()) {
                return requested.get();
            }
        }
        return ModelKeys.firstNonFallbackModel(platform, kind, mappings);
    }

    /**
     * One account on one tick, only when it {@link #needsRecovery(CredentialHealth) needs recovery}:
     * a paused or blacklisted account is neither reactivated nor probed, whatever its rule, and model
     * pauses are never lifted here: reactivation keeps them and the probe skips them.
     *
     * @param previousTick null on the first tick after start
     * @param lastProbe null when this process has not probed the account yet
     */
    public static RecoveryAction decide(
            RecoveryConfig config,
            CredentialHealth health,
            Platform platform,
            CredentialKind kind,
            List<ModelMapping> mappings,
            Instant previousTick,
            Instant thisTick,
            Instant lastProbe) {
        if (config == null || config.mode() == RecoveryMode.OFF || !needsRecovery(health)) {
            return RecoveryAction.NOTHING;
        }
        if (config.mode() == RecoveryMode.SCHEDULED) {
            ZoneId zone = config.timeZone();
            return scheduledTrigger(
                            config.times(),
                            previousTick == null ? null : previousTick.atZone(zone),
                            thisTick.atZone(zone))
                    .<RecoveryAction>map(RecoveryAction.Reactivate::new)
                    .orElse(RecoveryAction.NOTHING);
        }
        if (!healthcheckDue(lastProbe, config.intervalMinutes(), thisTick)) {
            return RecoveryAction.NOTHING;
        }
        return new RecoveryAction.Probe(
                probeModel(platform, kind, mappings, health.models().values(), thisTick));
    }
}
