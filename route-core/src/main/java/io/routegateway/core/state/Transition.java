package io.routegateway.core.state;

import java.util.List;

/** The result of applying one event: the next state and what visibly changed. */
public record Transition(CredentialHealth next, List<HealthChange> changes) {

    public Transition {
        changes = List.copyOf(changes);
    }

    public boolean changedState(CredentialHealth previous) {
        return !next.equals(previous);
    }
}
