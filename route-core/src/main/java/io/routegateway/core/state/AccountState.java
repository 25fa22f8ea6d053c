package io.routegateway.core.state;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The failure columns of {@code route_credentials} plus its status: account-level state.
 *
 * @param status never null
 * @param transientFailureCount consecutive transient failures; drives the "错误 N 次" tag
 * @param nextRetryAt earliest moment a retry is allowed (written together with cooldownUntil), may
 *     be null
 * @param cooldownUntil when the account cooldown expires, may be null
 * @param lastFailureKind failure label, may be null
 * @param lastFailureMessage truncated message, may be null
 * @param lastFailureResponseJson raw upstream response, at most 8192 characters plus "…", may be
 *     null
 * @param semanticFailureStreakCount streak length for one fingerprint
 * @param semanticFailureStreakFingerprint may be null
 */
public record AccountState(
        AccountStatus status,
        int transientFailureCount,
        Instant nextRetryAt,
        Instant cooldownUntil,
        String lastFailureKind,
        String lastFailureMessage,
        String lastFailureResponseJson,
        int semanticFailureStreakCount,
        String semanticFailureStreakFingerprint) {

    public static final AccountState HEALTHY =
            new AccountState(AccountStatus.OK, 0, null, null, null, null, null, 0, null);

    /**
     * The {@code last_failure_kind} the consecutive-failure blacklist writes with status {@code
     * error}: no step of the forwarding chain (those are {@code FailureKind}) but the state's own
     * marker, so recovery can tell a blacklist (seed B: "requires manual verification and does not
     * recover automatically") from the error flips that do recover by themselves. No event carries
     * it ({@code InboundScreen} refuses one that does).
     */
    public static final String BLACKLISTED_KIND = "blacklisted";

    public AccountState {
        if (status == null) {
            throw new IllegalArgumentException("status is required");
        }
    }

    public AccountState withStatus(AccountStatus next) {
        return new AccountState(
                next,
                transientFailureCount,
                nextRetryAt,
                cooldownUntil,
                lastFailureKind,
                lastFailureMessage,
                lastFailureResponseJson,
                semanticFailureStreakCount,
                semanticFailureStreakFingerprint);
    }

    /**
     * Whether the consecutive-failure blacklist took the account out: only a person brings it back.
     * Derived, not a wire property (also for the OpenAPI document, which would list it otherwise).
     */
    @JsonIgnore
    public boolean isBlacklisted() {
        return status == AccountStatus.ERROR && BLACKLISTED_KIND.equals(lastFailureKind);
    }

    /** The same state with another failure detail (kind, message, response body). */
    public AccountState withFailureDetail(String kind, String message, String responseJson) {
        return new AccountState(
                status,
                transientFailureCount,
                nextRetryAt,
                cooldownUntil,
                kind,
                message,
                responseJson,
                semanticFailureStreakCount,
                semanticFailureStreakFingerprint);
    }

    /** The success-clearing write: every failure trace zeroed, status untouched. */
    public AccountState clearedOfFailures() {
        return new AccountState(status, 0, null, null, null, null, null, 0, null);
    }

    /** Whether the account cooldown (either timestamp) has not yet expired at {@code now}. */
    public boolean isCoolingAt(Instant now) {
        return after(cooldownUntil, now) || after(nextRetryAt, now);
    }

    /** The later of the two account timestamps, or null. */
    public Instant coolingUntil() {
        if (cooldownUntil == null) {
            return nextRetryAt;
        }
        if (nextRetryAt == null) {
            return cooldownUntil;
        }
        return cooldownUntil.isAfter(nextRetryAt) ? cooldownUntil : nextRetryAt;
    }

    public boolean hasFailureTraces() {
        return transientFailureCount > 0
                || nextRetryAt != null
                || cooldownUntil != null
                || lastFailureKind != null
                || lastFailureMessage != null
                || lastFailureResponseJson != null
                || semanticFailureStreakCount > 0
                || semanticFailureStreakFingerprint != null;
    }

    private static boolean after(Instant instant, Instant now) {
        return instant != null && instant.isAfter(now);
    }
}
