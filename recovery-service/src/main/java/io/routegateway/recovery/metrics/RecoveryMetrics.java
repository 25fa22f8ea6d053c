package io.routegateway.recovery.metrics;

import java.util.List;
import java.util.function.BooleanSupplier;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.routegateway.common.upstream.AddressRefused;
import io.routegateway.core.hostpolicy.HostPolicy;

/**
 * recovery-service's Micrometer meters (Prometheus at {@code /q/metrics}), all in one place as the
 * gateway's {@code GatewayMetrics}:
 *
 * <ul>
 *   <li>{@code recovery_leader} — 1 while this replica holds the leader lock and ticks, 0 while it
 *       stands by;
 *   <li>{@code recovery_ticks_total{role}} — ticks as {@code leader} or {@code standby};
 *   <li>{@code recovery_reactivations_total} — scheduled reactivations published;
 *   <li>{@code recovery_credential_failures_total} — accounts whose recovery failed on a tick;
 *   <li>{@code recovery_model_tests_total{trigger,result}} — model tests by trigger and result
 *       ({@code success}, {@code failure}, {@code not_a_failure});
 *   <li>{@code recovery_upstream_addresses_refused_total{reason}} — model-test connections not
 *       opened because the host resolved to an address the host policy refuses (DNS rebinding).
 * </ul>
 *
 * <p>The counters exist from the start (at zero) for every role, trigger and result, so an alert on
 * their increase sees the first one too.
 */
@Singleton
public class RecoveryMetrics {

    private final MeterRegistry registry;

    /** The {@code trigger} tag values ({@code ModelTestService.Trigger}). */
    static final List<String> TRIGGERS = List.of("healthcheck", "manual");

    /** The {@code result} tag values. */
    static final List<String> RESULTS = List.of("success", "failure", "not_a_failure");

    public RecoveryMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.counter("recovery.ticks", "role", "leader");
        registry.counter("recovery.ticks", "role", "standby");
        registry.counter("recovery.reactivations");
        registry.counter("recovery.credential.failures");
        for (String trigger : TRIGGERS) {
            for (String result : RESULTS) {
                registry.counter("recovery.model.tests", "trigger", trigger, "result", result);
            }
        }
        for (HostPolicy.Reason reason : HostPolicy.Reason.values()) {
            registry.counter("recovery.upstream.addresses.refused", "reason", reason.wire());
        }
    }

    /** {@code recovery_upstream_addresses_refused_total{reason}}: fired by the upstream client. */
    void addressRefused(@Observes AddressRefused refused) {
        registry.counter("recovery.upstream.addresses.refused", "reason", refused.reason())
                .increment();
    }

    /** Registers {@code recovery_leader}, read from {@code isLeader} at each scrape. */
    public void leaderGauge(BooleanSupplier isLeader) {
        Gauge.builder("recovery.leader", isLeader, held -> held.getAsBoolean() ? 1 : 0)
                .description("1 while this replica holds the recovery leader lock and ticks, 0 while it stands by")
                // a method reference is held by nothing else: a weak reference would let it go
                .strongReference(true)
                .register(registry);
    }

    public void tick(boolean leader) {
        registry.counter("recovery.ticks", "role", leader ? "leader" : "standby")
                .increment();
    }

    public void reactivated() {
        registry.counter("recovery.reactivations").increment();
    }

    public void credentialFailed() {
        registry.counter("recovery.credential.failures").increment();
    }

    /** @param result {@code success}, {@code failure} or {@code not_a_failure} */
    public void modelTest(String trigger, String result) {
        registry.counter("recovery.model.tests", "trigger", trigger, "result", result)
                .increment();
    }
}
