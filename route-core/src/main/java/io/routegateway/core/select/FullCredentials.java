package io.routegateway.core.select;

import io.routegateway.core.event.CredentialSnapshot;

/**
 * Which credentials are at their own limits now ({@code rpm_limit} or {@code
 * max_parallel_requests} of {@link CredentialSnapshot#limits()}), as the caller counts them: {@link
 * Router} skips such a credential with {@link ReasonCode#CREDENTIAL_FULL} like a tried one. A full
 * credential is not broken: nothing is recorded against it, it is never the cooling probe, and a
 * request that finds only full credentials is {@code no_available_credential} (it only has to wait).
 */
@FunctionalInterface
public interface FullCredentials {

    /** Nothing is full: no credential has limits, or nobody counts. */
    FullCredentials NONE = credential -> false;

    boolean isFull(CredentialSnapshot credential);
}
