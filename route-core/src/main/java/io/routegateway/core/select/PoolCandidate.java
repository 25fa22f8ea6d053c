package io.routegateway.core.select;

import io.routegateway.core.event.CredentialSnapshot;

/**
 * A credential that survived selection steps 1–3, with the model key it is charged under and the
 * model name it is sent upstream as. Both are null when the request carries no model name: such
 * requests skip the model filter and the model state and charge the account.
 */
public record PoolCandidate(CredentialSnapshot credential, String modelKey, String upstreamModel) {

    public PoolCandidate {
        if (credential == null) {
            throw new IllegalArgumentException("credential is required");
        }
    }

    public String credentialId() {
        return credential.credentialId();
    }
}
