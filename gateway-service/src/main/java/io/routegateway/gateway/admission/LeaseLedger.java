package io.routegateway.gateway.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkus.runtime.StartupEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.limits.AdmissionDecision;
import io.routegateway.core.limits.AdmissionLedger;
import io.routegateway.core.limits.AdmissionRequest;
import io.routegateway.core.limits.CredentialCapacity;
import io.routegateway.core.limits.CredentialLimits;
import io.routegateway.core.limits.Leases;
import io.routegateway.core.limits.LedgerView;
import io.routegateway.core.limits.SubjectKind;
import io.routegateway.core.select.FullCredentials;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.publish.LeasePublisher;
import io.routegateway.gateway.view.ReplicaIdentity;
import io.vertx.core.Vertx;

/**
 * This replica's count of the cluster's admissions: route-core's {@link AdmissionLedger} (every
 * decision is its), fed with this replica's own leases as it makes them (and publishes them on
 * {@code route.admissions}) and with its peers' as {@link LeaseReader} reads them. Own leases are
 * REQUEST leases of admitted requests of limited keys and ATTEMPT leases of upstream attempts on
 * credentials with limits of their own; a timer renews those still open after a third of their term,
 * so only a crashed replica's slots wait for their expiry.
 *
 * <p>Thread-safe: the ledger has one lock of its own, held for microseconds.
 */
@Singleton
public class LeaseLedger {

    private final AdmissionLedger ledger = new AdmissionLedger();
    private final LeasePublisher publisher;
    private final ReplicaIdentity replica;
    private final Clock clock;
    private final Vertx vertx;
    private final Duration ttl;

    private final FullCredentials full;
    private long renewalTimer = -1;

    LeaseLedger(LeasePublisher publisher, ReplicaIdentity replica, Clock clock, Vertx vertx, GatewayConfig config) {
        this.publisher = publisher;
        this.replica = replica;
        this.clock = clock;
        this.vertx = vertx;
        this.ttl = config.admission().leaseTtl();
        if (ttl.toMillis() < 3_000) {
            throw new IllegalArgumentException("gateway.admission.lease-ttl must be at least 3s, was " + ttl);
        }
        this.full = credential -> isFull(credential, clock.instant());
    }

    void onStart(@Observes StartupEvent event) {
        // often enough that a lease is renewed soon after a third of its term, well before it ends
        long every = Math.max(250, ttl.toMillis() / 12);
        renewalTimer = vertx.setPeriodic(every, ignored -> renewOwnLeases());
    }

    @PreDestroy
    void stop() {
        if (renewalTimer >= 0) {
            vertx.cancelTimer(renewalTimer);
        }
    }

    /** What the decisions read; answers are as of the {@code now} passed. */
    public LedgerView view() {
        return ledger;
    }

    /** A peer's lease, read from the topic. */
    void peer(LeaseEvent lease) {
        ledger.apply(lease, clock.instant());
    }

    /** A key's or team's settled spend, as the spend topic has it (kept if newer than the held one). */
    void spend(SpendSnapshot snapshot) {
        if (snapshot != null) {
            ledger.applySpend(snapshot);
        }
    }

    /**
     * Decides {@code request} and, when it is admitted, opens its REQUEST lease (counted here and
     * published for the peers).
     */
    Admitted admit(AdmissionRequest request, Instant now) {
        LeaseEvent opened = Leases.openRequest(
                EventIds.next(),
                replica.id(),
                request.accessKeyId(),
                request.teamId(),
                now,
                ttl,
                request.reservedTokens());
        AdmissionDecision decision = ledger.admit(now, request, opened);
        if (!decision.admitted() || decision.isUnlimited()) {
            return new Admitted(decision, null);
        }
        publisher.publish(opened);
        return new Admitted(decision, opened);
    }

    /** A decision and, when a lease was opened for it, that lease's OPENED record. */
    record Admitted(AdmissionDecision decision, LeaseEvent lease) {}

    /** Closes a lease this replica opened: counted here, published for the peers. */
    void close(LeaseEvent opened, Instant at, Long settledTokens, Long costMicros) {
        LeaseEvent closed = Leases.close(opened, at, settledTokens, costMicros);
        ledger.apply(closed, clock.instant());
        publisher.publish(closed);
    }

    /**
     * Opens the ATTEMPT lease of an upstream attempt on {@code credential}, or returns null when the
     * credential has no limits of its own (nothing to count).
     *
     * @param accessKeyId the request's key, for the record
     * @param teamId the request's team, for the record; may be null
     */
    public LeaseEvent openAttempt(CredentialSnapshot credential, String accessKeyId, String teamId) {
        CredentialLimits limits = credential.limits();
        if (limits == null || limits.isNone()) {
            return null;
        }
        Instant now = clock.instant();
        LeaseEvent opened = Leases.openAttempt(
                EventIds.next(), replica.id(), credential.credentialId(), accessKeyId, teamId, now, ttl);
        if (!ledger.openAttempt(now, limits, opened)) {
            // it filled up between selection and now (another event loop's attempt): the request was
            // routed here already, so it goes; the credential's limit is passed by at most one attempt
            // per event loop
            ledger.apply(opened, now);
        }
        publisher.publish(opened);
        return opened;
    }

    /** Ends an attempt's lease ({@link #openAttempt}); null does nothing. */
    public void closeAttempt(LeaseEvent attempt) {
        if (attempt != null) {
            close(attempt, clock.instant(), null, null);
        }
    }

    /** The credentials at their own limits now, for selection ({@code credential_full}). */
    public FullCredentials fullCredentials() {
        return full;
    }

    private boolean isFull(CredentialSnapshot credential, Instant now) {
        CredentialLimits limits = credential.limits();
        return limits != null
                && !limits.isNone()
                && CredentialCapacity.isFull(now, credential.credentialId(), limits, ledger);
    }

    /** Requests in flight on a credential now (its open ATTEMPT leases). */
    long attemptsInFlight(String credentialId, Instant now) {
        return ledger.inFlight(SubjectKind.CREDENTIAL, credentialId, now);
    }

    /** Renews this replica's leases that have run past a third of their term. */
    void renewOwnLeases() {
        Instant now = clock.instant();
        for (LeaseEvent lease : ledger.leasesToRenew(now, replica.id())) {
            LeaseEvent renewed = Leases.renewal(lease, now, ttl);
            ledger.apply(renewed, now);
            publisher.publish(renewed);
        }
    }
}
