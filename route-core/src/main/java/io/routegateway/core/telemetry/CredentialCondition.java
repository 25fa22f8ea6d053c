package io.routegateway.core.telemetry;

import java.time.Instant;
import java.util.Locale;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.select.SelectionSteps;
import io.routegateway.core.state.AccountStatus;

/**
 * The one condition a credential is in, for the pool's health metrics ({@code
 * gateway_pool_credentials{condition}}): what an operator has to act on first. Exactly one per
 * non-archived credential, checked in the declared order, so a credential someone disabled on
 * purpose never also counts as revoked or cooling.
 */
public enum CredentialCondition {
    /** Disabled, or taken out of the pool, by an operator. */
    DISABLED,
    /** Account status {@code paused}: stopped by hand. */
    PAUSED,
    /** Account status {@code revoked}: the upstream voided the key or the authorization. */
    REVOKED,
    /** Account status {@code error}: the failure threshold or a quota answer took it out. */
    ERROR,
    /** Account status {@code warning}. */
    WARNING,
    /** An OAuth-managed official account whose access token is expired or was never authorized. */
    AUTH_UNAVAILABLE,
    /** Quota remaining at or below zero. */
    QUOTA_EXHAUSTED,
    /** Routable, but its account cooldown has not run out. */
    COOLING,
    /** Routable now (some of its models may still be cooling, paused or in error). */
    AVAILABLE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The condition of {@code credential} at {@code now}; archived credentials are not asked about. */
    public static CredentialCondition of(CredentialSnapshot credential, Instant now) {
        if (!credential.enabled() || !credential.inPool()) {
            return DISABLED;
        }
        switch (credential.account().status()) {
            case PAUSED:
                return PAUSED;
            case REVOKED:
                return REVOKED;
            case ERROR:
                return ERROR;
            case WARNING:
                return WARNING;
            default:
                break;
        }
        if (credential.kind() == CredentialKind.OFFICIAL && credential.authUnavailable()) {
            return AUTH_UNAVAILABLE;
        }
        if (!SelectionSteps.hasQuota(credential)) {
            return QUOTA_EXHAUSTED;
        }
        Instant coolingUntil = credential.account().coolingUntil();
        if (coolingUntil != null && coolingUntil.isAfter(now)) {
            return COOLING;
        }
        return AVAILABLE;
    }

    /** Whether the account status alone keeps it out until someone acts (or recovery clears it). */
    static boolean isOperatorTurnedOff(CredentialSnapshot credential) {
        return !credential.enabled()
                || !credential.inPool()
                || credential.account().status() == AccountStatus.PAUSED;
    }
}
