package io.routegateway.core.select;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.CredentialProfile;
import io.routegateway.core.state.StateTransition;
import io.routegateway.core.state.Transition;

/**
 * An outcome event applied to a gateway's routing view with the very {@link StateTransition}
 * state-service applies under its transaction, so the two cannot disagree. Two sources:
 *
 * <ul>
 *   <li>the replica's own outcome, applied before it is published, so its next request already
 *       avoids what failed (no position);
 *   <li>a peer's failure (another replica's or recovery-service's) read from {@code route.outcomes}
 *       at a position, so every replica avoids a failing credential one Kafka hop after the replica
 *       that saw the failure, instead of after state-service's apply and a second hop. A record the
 *       held state already reflects ({@link OutcomePosition#covers}, against the position the
 *       snapshot carries) is skipped: applying it again would count a failure twice.
 * </ul>
 *
 * <p>Only failures are taken from peers. This replica applies its own outcomes out of the topic's
 * order (before they are published), so a peer's success read after an own failure could clear a
 * failure that state-service, applying in order, keeps. A failure taken early only makes the view
 * more careful; whatever makes it less careful (successes, tests, reactivations, admin actions)
 * comes with state-service's snapshot, as before.
 *
 * <p>The changed snapshot keeps its version, so the next authoritative snapshot (a higher version)
 * replaces it and the view converges to state-service whatever was applied locally.
 */
public final class ViewOutcomes {

    private ViewOutcomes() {}

    /** This replica's own outcome: {@link #applied(PoolView, CredentialEvent, OutcomePosition, int)} without a position. */
    public static PoolView applied(PoolView view, CredentialEvent event, int blacklistThreshold) {
        return applied(view, event, null, blacklistThreshold);
    }

    /**
     * The view after {@code event}: unchanged when the credential is not in it, when a peer's event
     * is not a failure, when the held state already reflects the record at {@code position}, or when
     * the transition changes nothing;
     * otherwise the credential's snapshot with the next health, marked with {@code position} (kept
     * as it was for an own outcome, which has none yet).
     *
     * @param position where the record was read on {@code route.outcomes}; null for an own outcome
     * @param blacklistThreshold the published consecutive-failure threshold, 0 = off
     */
    public static PoolView applied(
            PoolView view, CredentialEvent event, OutcomePosition position, int blacklistThreshold) {
        CredentialSnapshot snapshot = view.credential(event.credentialId()).orElse(null);
        if (snapshot == null
                || (position != null && !isFailure(event))
                || OutcomePosition.covers(snapshot.outcomePosition(), position)) {
            return view;
        }
        CredentialHealth health = snapshot.health();
        Transition transition =
                StateTransition.apply(CredentialProfile.of(snapshot, blacklistThreshold), health, event);
        if (!transition.changedState(health)) {
            return view;
        }
        OutcomePosition mark = position == null ? snapshot.outcomePosition() : position;
        return view.with(snapshot.withHealth(transition.next(), mark));
    }

    /** Whether the event records a failure: the only kind a replica takes from its peers. */
    public static boolean isFailure(CredentialEvent event) {
        return event instanceof CredentialEvent.TransientFailureRecorded
                || event instanceof CredentialEvent.PermanentFailureRecorded
                || event instanceof CredentialEvent.QuotaExhaustionRecorded;
    }
}
