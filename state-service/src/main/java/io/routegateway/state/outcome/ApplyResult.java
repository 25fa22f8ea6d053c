package io.routegateway.state.outcome;

import java.util.List;
import java.util.UUID;

import io.routegateway.core.state.HealthChange;

/**
 * The outcome of applying one event.
 *
 * @param stateVersion the credential's {@code state_version} after the event
 * @param changes the timeline lines written (empty for a duplicate or a no-op)
 */
public record ApplyResult(UUID eventId, String credentialId, Kind kind, long stateVersion, List<HealthChange> changes) {

    public ApplyResult {
        changes = List.copyOf(changes);
    }

    public enum Kind {
        /** The state changed: rows written, version bumped, a snapshot queued for publication. */
        CHANGED,
        /** Applied (and recorded as processed) but nothing stored changed: no new version. */
        UNCHANGED,
        /** This event id was applied before: nothing was written. */
        DUPLICATE,
        /**
         * A success at or before the position of the credential's last applied change, delivered
         * again (it may have been acknowledged as a no-op without an idempotency row): older than the
         * stored state, ignored, nothing written.
         */
        STALE,
        /**
         * A success read from {@code route.outcomes} that changes nothing stored, acknowledged after
         * one read: no transaction, no idempotency row, nothing written.
         */
        NO_OP
    }
}
