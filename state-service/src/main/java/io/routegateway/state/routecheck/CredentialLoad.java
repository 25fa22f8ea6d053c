package io.routegateway.state.routecheck;

import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.JsonBatch;
import io.routegateway.core.event.LeaseBatch;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.limits.AdmissionLedger;
import io.routegateway.core.limits.CredentialCapacity;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.limits.Leases;
import io.routegateway.core.select.FullCredentials;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * The gateways' upstream attempts on credentials with limits of their own, as their ATTEMPT leases
 * on {@code route.admissions} say, so that route check names a credential at its {@code
 * max_parallel_requests} or {@code rpm_limit} {@code credential_full} as a gateway would.
 *
 * <p>Every replica reads every lease (a consumer group of its own per start, from the topic's end):
 * after a start it knows the attempts opened since, and those still open from their next renewal
 * (a third of a lease term, 20 s); an attempt's rpm count is missing for up to a minute after a
 * start. Counting is route-core's {@link AdmissionLedger}, the gateways' own; a record that cannot be
 * read or is implausible ({@link Leases#plausible}) is skipped, never stopping the channel. REQUEST
 * leases are folded too but nothing here reads them: the keys' and teams' live counts are the
 * gateways' alone.
 */
@ApplicationScoped
public class CredentialLoad {

    public static final String CHANNEL = "admissions";

    private static final Logger LOG = Logger.getLogger(CredentialLoad.class);

    private final AdmissionLedger ledger = new AdmissionLedger();
    private final Clock clock;

    CredentialLoad(Clock clock) {
        this.clock = clock;
    }

    @Incoming(CHANNEL)
    public void lease(String payload) {
        if (payload == null || payload.isBlank()) {
            return;
        }
        // one lease or a gateway's batch of them (LeaseBatch); each entry stands on its own
        for (JsonBatch.Entry<LeaseEvent> entry : LeaseBatch.decode(payload)) {
            try {
                LeaseEvent lease = entry.refused()
                        ? null
                        : Leases.plausible(entry.value(), clock.millis(), Leases.DEFAULT_TTL.toMillis());
                if (lease != null && lease.kind() == LeaseEvent.Kind.ATTEMPT) {
                    ledger.apply(lease, clock.instant());
                }
            } catch (RuntimeException e) {
                // a lease is a hint for route check: a bad one is dropped, the next ones still count
                LOG.debugf("Lease record skipped: %s", e.getClass().getSimpleName());
            }
        }
    }

    /** The credentials at their own limits at {@code now}. */
    public FullCredentials full(Instant now) {
        return credential -> isFull(credential, now);
    }

    private boolean isFull(CredentialSnapshot credential, Instant now) {
        CredentialLimits limits = credential.limits();
        return limits != null
                && !limits.isNone()
                && CredentialCapacity.isFull(now, credential.credentialId(), limits, ledger);
    }
}
