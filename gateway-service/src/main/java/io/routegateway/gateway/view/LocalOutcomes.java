package io.routegateway.gateway.view;

import jakarta.inject.Singleton;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.CredentialProfile;
import io.routegateway.core.state.StateTransition;
import io.routegateway.core.state.Transition;

/**
 * Applies this replica's own outcome events to its view at once, with the same {@link
 * StateTransition} state-service runs, so a failing credential is avoided by the very next request
 * rather than after a round trip through Kafka. The locally changed snapshot keeps its version: the
 * next authoritative snapshot (a higher version) replaces it, so the view converges to state-service.
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

    /** @return whether the event changed this replica's view of its credential */
    public boolean apply(CredentialEvent event) {
        int threshold = holder.blacklistThreshold();
        return holder.update(view -> applied(view, event, threshold));
    }

    static PoolView applied(PoolView view, CredentialEvent event, int blacklistThreshold) {
        CredentialSnapshot snapshot = view.credential(event.credentialId()).orElse(null);
        if (snapshot == null) {
            return view;
        }
        CredentialHealth health = snapshot.health();
        Transition transition =
                StateTransition.apply(CredentialProfile.of(snapshot, blacklistThreshold), health, event);
        if (!transition.changedState(health)) {
            return view;
        }
        return view.with(snapshot.withHealth(transition.next()));
    }
}
