package io.routegateway.core.state;

import java.time.Instant;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialEvent.AttemptSucceeded;
import io.routegateway.core.event.CredentialEvent.ModelTestSucceeded;
import io.routegateway.core.event.CredentialEvent.PermanentFailureRecorded;
import io.routegateway.core.event.CredentialEvent.QuotaExhaustionRecorded;
import io.routegateway.core.event.CredentialEvent.TransientFailureRecorded;

/** Terse event builders for transition tests. */
final class Events {

    static final String CREDENTIAL = "cred-primary";
    static final Instant T0 = Instant.parse("2026-09-02T10:00:00Z");

    private Events() {}

    static Instant t(int seconds) {
        return T0.plusSeconds(seconds);
    }

    static TransientFailureRecorded status(int second, String modelKey, int status) {
        return new TransientFailureRecorded(
                UUID.randomUUID(),
                CREDENTIAL,
                t(second),
                modelKey,
                "upstream_status",
                status,
                "upstream returned " + status,
                "{\"error\":{\"message\":\"rate limited\"}}");
    }

    static TransientFailureRecorded failure(int second, String modelKey, String kind, Integer status, String message) {
        return new TransientFailureRecorded(
                UUID.randomUUID(), CREDENTIAL, t(second), modelKey, kind, status, message, null);
    }

    static AttemptSucceeded success(int second, String modelKey) {
        return new AttemptSucceeded(UUID.randomUUID(), CREDENTIAL, t(second), modelKey);
    }

    static QuotaExhaustionRecorded quota(int second, String message) {
        return QuotaExhaustionRecorded.withoutReset(UUID.randomUUID(), CREDENTIAL, t(second), null, 200, message, "{}");
    }

    /** A usage-limit signal: the upstream said its window resets at {@code resetsAt}. */
    static QuotaExhaustionRecorded usageLimit(int second, Instant resetsAt, String window) {
        return new QuotaExhaustionRecorded(
                UUID.randomUUID(),
                CREDENTIAL,
                t(second),
                null,
                429,
                "Claude usage limit reached: 5-hour window resets at " + resetsAt,
                "{}",
                resetsAt,
                window);
    }

    static PermanentFailureRecorded permanent(int second, String message) {
        return new PermanentFailureRecorded(
                UUID.randomUUID(), CREDENTIAL, t(second), null, "refresh", 400, message, null);
    }

    static ModelTestSucceeded test(int second, String modelKey, boolean explicit) {
        return new ModelTestSucceeded(UUID.randomUUID(), CREDENTIAL, t(second), modelKey, explicit, false);
    }

    /** A healthcheck probe's pass: explicit against the account, but automation. */
    static ModelTestSucceeded probe(int second, String modelKey) {
        return new ModelTestSucceeded(UUID.randomUUID(), CREDENTIAL, t(second), modelKey, true, true);
    }

    static CredentialEvent.ScheduledReactivationTriggered scheduled(int second) {
        return new CredentialEvent.ScheduledReactivationTriggered(UUID.randomUUID(), CREDENTIAL, t(second), "03:00");
    }
}
