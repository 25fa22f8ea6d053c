package io.routegateway.core.limits;

import java.time.Instant;

/**
 * Whether an upstream credential is at its own limits: {@code rpm_limit} ATTEMPT leases opened in
 * the last 60 s, or {@code max_parallel_requests} ATTEMPT leases open. Selection skips a full
 * credential with reason {@value #REASON}, as it skips a cooling one; that is not a failure and
 * nothing is recorded against the credential.
 */
public final class CredentialCapacity {

    /** The reason code selection and route check give for a skipped full credential. */
    public static final String REASON = "credential_full";

    private CredentialCapacity() {}

    /** Whether {@code credentialId} is full by {@code limits} (null or none = never). */
    public static boolean isFull(Instant now, String credentialId, CredentialLimits limits, LedgerView view) {
        if (limits == null || limits.isNone() || credentialId == null) {
            return false;
        }
        if (limits.maxParallelRequests() != null
                && view.inFlight(SubjectKind.CREDENTIAL, credentialId, now) >= limits.maxParallelRequests()) {
            return true;
        }
        return limits.rpmLimit() != null
                && view.requests(SubjectKind.CREDENTIAL, credentialId, now) >= limits.rpmLimit();
    }
}
