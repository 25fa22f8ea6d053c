package io.routegateway.core.limits;

/**
 * What a request does when routing finds only credentials at their own limits ({@code
 * credential_full}) in its way: it waits for a slot, bounded, instead of failing with {@code
 * no_available_credential}. Admission has already let it in ({@link FairShare}: a team under its
 * share of a full pool is admitted, and the slot it waits for is claimed for it, so the over-share
 * teams do not take it); the wait turns "the pool is busy this instant" into a short delay rather
 * than a 502.
 *
 * <p>The rule: while only full credentials are in the way and the request has waited less than
 * {@code maxWaitMillis}, route again after {@link #RETRY_MILLIS} (or what is left of the wait, if
 * less); otherwise give up with the routing refusal as it stands. A wait of 0 never waits. Anything
 * else in the way (cooling, tried, no model) is answered at once, as before.
 *
 * <p>The same bounded re-try applies to admission's own fair-share refusal ({@link
 * #recheckInMillis}): the counts a replica decides on lag its peers' by one Kafka hop, so a team
 * whose last request just ended on another replica still looks as if it held that slot, and a quiet
 * team at its share would be refused for a request that is already over. Deciding again for a short
 * while ({@code gateway.admission.fair-share-recheck}) lets the close arrive; a team really over its
 * share is refused at the end of it. No other refusal is re-decided: an rpm, tpm, budget or parallel
 * limit is the team's or key's own, and the client's Retry-After is the honest answer.
 */
public final class SlotWait {

    /** The pause between two routing tries of a waiting request. */
    public static final long RETRY_MILLIS = 20;

    /** Give up now. */
    public static final long GIVE_UP = -1;

    private SlotWait() {}

    /**
     * The pause before the next routing try, or {@link #GIVE_UP}.
     *
     * @param onlyFullInTheWay whether routing would have picked a credential were the full ones not
     *     full
     * @param waitedMillis how long the request has waited so far (0 at its first refusal)
     * @param maxWaitMillis {@code gateway.admission.slot-wait}; ≤ 0 = never wait
     */
    public static long nextTryInMillis(boolean onlyFullInTheWay, long waitedMillis, long maxWaitMillis) {
        if (!onlyFullInTheWay || maxWaitMillis <= 0) {
            return GIVE_UP;
        }
        long left = maxWaitMillis - Math.max(0, waitedMillis);
        if (left <= 0) {
            return GIVE_UP;
        }
        return Math.min(RETRY_MILLIS, left);
    }

    /**
     * The pause before admission decides again on a request it refused by {@code refusedBy}, or
     * {@link #GIVE_UP}: only a fair-share refusal ({@link LimitField#FAIR_SHARE}) is decided again,
     * every {@link #RETRY_MILLIS} up to {@code maxWaitMillis} (≤ 0 = never).
     */
    public static long recheckInMillis(LimitField refusedBy, long waitedMillis, long maxWaitMillis) {
        return nextTryInMillis(refusedBy == LimitField.FAIR_SHARE, waitedMillis, maxWaitMillis);
    }
}
