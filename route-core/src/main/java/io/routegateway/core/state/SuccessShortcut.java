package io.routegateway.core.state;

import java.util.Objects;

import io.routegateway.core.event.CredentialEvent.AttemptSucceeded;
import io.routegateway.core.event.OutcomePosition;

/**
 * When state-service may acknowledge an {@link AttemptSucceeded} read from {@code route.outcomes}
 * without the transactional apply (row lock, idempotency row, state write, outbox row). Gateways
 * publish every counted success, because only state-service knows whether a failure recorded
 * elsewhere (another replica, recovery-service) is waiting to be cleared; almost all of them change
 * nothing, and those must stay cheap.
 *
 * <p>Two cases, both pure:
 *
 * <ul>
 *   <li>{@link #changesNothing}: the success applied to the stored account and the stored row of
 *       its model gives the same state. Acknowledging it writes nothing, also no idempotency row.
 *   <li>{@link #isReplay}: the success sits on {@code route.outcomes} at or before the last record
 *       that changed the credential's state. A success acknowledged as a no-op has no idempotency
 *       row, so when it is delivered again (a rebalance or a restart re-reads from the last committed
 *       offset; a consumer that lost its offsets re-reads the topic) after a later failure was
 *       applied, only its position says that it is older than that failure: applying it would
 *       wrongly clear the newer failure. Positions, not timestamps: the records of one credential
 *       are ordered on their partition (key = credential id), while occurred-at times come from the
 *       clocks of different replicas and can disagree by more than the gap between a failure and the
 *       success after it.
 * </ul>
 *
 * <p>Only plain forwarding successes take this path. Every other event is applied in full and keeps
 * its idempotency row; a model test success is not a candidate because an explicit test moves a
 * paused account back to ok, so a replayed test could undo a pause set after it.
 */
public final class SuccessShortcut {

    private SuccessShortcut() {}

    /**
     * Whether applying {@code success} to {@code stored} changes nothing that is stored. {@code
     * stored} needs the account and the row of the success's model key only (a success never
     * touches another row), so a caller may pass a state holding just that row. Decided by the very
     * transition state-service applies, so the shortcut cannot drift from it.
     */
    public static boolean changesNothing(CredentialHealth stored, AttemptSucceeded success) {
        Objects.requireNonNull(stored, "stored");
        Objects.requireNonNull(success, "success");
        return StateTransition.successClearing(stored, success.modelKey(), success.occurredAt())
                .equals(stored);
    }

    /**
     * Whether the record at {@code position} is at or before {@code lastChange}, the position of the
     * last record that changed the credential's state, on the same partition: a redelivery of a
     * record seen before. Positions on different partitions (the topic's partition count changed)
     * are not comparable: not a replay. Null for either (an event from the admin API, a row that no
     * record changed yet): not a replay.
     */
    public static boolean isReplay(OutcomePosition lastChange, OutcomePosition position) {
        return OutcomePosition.covers(lastChange, position);
    }
}
