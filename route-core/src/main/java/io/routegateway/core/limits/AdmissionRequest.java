package io.routegateway.core.limits;

import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * What admission needs to know of one request, resolved by the caller from its snapshots.
 *
 * @param accessKeyId the AccessKey
 * @param keyLimits the key's limits (null = none)
 * @param teamId the key's team (null = none)
 * @param teamLimits the team's limits (null = none; ignored without a team)
 * @param teamWeight the team's weight, for fair share
 * @param reservedTokens the request's {@link TokenReservation}; stored capped at the lower of the
 *     key's and team's tpm_limit, which is what its OPENED lease must carry
 * @param pool the load of the pool for fair share (null = no fair share)
 * @param zone the zone of budget windows ({@code route.default-time-zone}; null = UTC)
 */
public record AdmissionRequest(
        String accessKeyId,
        Limits keyLimits,
        String teamId,
        Limits teamLimits,
        int teamWeight,
        long reservedTokens,
        PoolLoad pool,
        ZoneId zone) {

    public AdmissionRequest {
        keyLimits = keyLimits == null ? Limits.NONE : keyLimits;
        teamLimits = teamLimits == null || teamId == null ? Limits.NONE : teamLimits;
        teamWeight = Math.max(1, teamWeight);
        reservedTokens = TokenReservation.capped(
                TokenReservation.capped(reservedTokens, keyLimits.tpmLimit()), teamLimits.tpmLimit());
        zone = zone == null ? ZoneOffset.UTC : zone;
    }

    /**
     * True when nothing limits the request: no key limits, no team limits, no bounded pool for a
     * team's fair share. Admission is then a constant and no lease is opened.
     */
    public boolean isUnlimited() {
        return keyLimits.isNone() && teamLimits.isNone() && (teamId == null || pool == null || !pool.isBounded());
    }
}
