package io.routegateway.gateway.view;

import java.util.Set;

/** State-service's snapshots of these credentials reached this replica's view (a CDI event). */
public record CredentialStateArrived(Set<String> credentialIds) {

    public CredentialStateArrived {
        credentialIds = Set.copyOf(credentialIds);
    }
}
