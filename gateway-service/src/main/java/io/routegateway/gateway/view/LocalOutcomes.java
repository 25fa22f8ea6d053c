package io.routegateway.gateway.view;

import jakarta.inject.Singleton;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.select.ViewOutcomes;

/**
 * Applies outcome events to this replica's view at once ({@link ViewOutcomes}): its own, before they
 * are published, so a failing credential is avoided by the very next request rather than after a
 * round trip through Kafka; and its peers', as {@link PeerOutcomesReader} reads them. The locally
 * changed snapshot keeps its version: the next authoritative snapshot (a higher version) replaces
 * it, so the view converges to state-service.
 *
 * <p>The optional consecutive-failure blacklist threshold is the one published on {@code
 * route.settings} ({@link PoolViewHolder#blacklistThreshold()}); 0 (off) until settings were published.
 */
@Singleton
public class LocalOutcomes {

    private final PoolViewHolder holder;

    LocalOutcomes(PoolViewHolder holder) {
        this.holder = holder;
    }

    /** @return whether this replica's own event changed its view of its credential */
    public boolean apply(CredentialEvent event) {
        return apply(event, null);
    }

    /**
     * @param position where a peer's event was read on {@code route.outcomes}; null for an own event
     * @return whether the event changed this replica's view of its credential
     */
    public boolean apply(CredentialEvent event, OutcomePosition position) {
        int threshold = holder.blacklistThreshold();
        return holder.update(view -> ViewOutcomes.applied(view, event, position, threshold));
    }
}
