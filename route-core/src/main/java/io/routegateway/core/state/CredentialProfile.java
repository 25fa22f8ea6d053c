package io.routegateway.core.state;

import java.util.List;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.ModelMapping;
import io.routegateway.core.model.Platform;
import io.routegateway.core.policy.FailurePolicy;

/**
 * The configuration the transition function reads: which models the account serves (escalation
 * denominator), its failure policy, and the optional consecutive-failure blacklist threshold from
 * runtime settings (0 = off, the default).
 */
public record CredentialProfile(
        Platform platform,
        CredentialKind kind,
        List<ModelMapping> modelMappings,
        FailurePolicy failurePolicy,
        int blacklistThreshold) {

    public CredentialProfile {
        if (platform == null || kind == null) {
            throw new IllegalArgumentException("platform and kind are required");
        }
        modelMappings = modelMappings == null ? List.of() : List.copyOf(modelMappings);
        failurePolicy = failurePolicy == null ? FailurePolicy.DEFAULTS : failurePolicy;
        if (blacklistThreshold < 0) {
            throw new IllegalArgumentException("blacklist threshold must be >= 0");
        }
    }

    public static CredentialProfile of(CredentialSnapshot snapshot, int blacklistThreshold) {
        return new CredentialProfile(
                snapshot.platform(),
                snapshot.kind(),
                snapshot.modelMappings(),
                snapshot.failurePolicy(),
                blacklistThreshold);
    }
}
