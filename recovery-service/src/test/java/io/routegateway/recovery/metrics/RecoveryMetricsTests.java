package io.routegateway.recovery.metrics;

import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The one holder of recovery-service's meters: names and tags as docs/recovery-service.md lists them. */
class RecoveryMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RecoveryMetrics metrics = new RecoveryMetrics(registry);

    @Test
    void theLeaderGaugeFollowsTheLeadershipAndOutlivesAGarbageCollection() {
        AtomicBoolean leader = new AtomicBoolean();
        metrics.leaderGauge(leader::get);
        System.gc();

        assertThat(registry.get("recovery.leader").gauge().value()).isEqualTo(0.0);
        leader.set(true);
        assertThat(registry.get("recovery.leader").gauge().value()).isEqualTo(1.0);
    }

    @Test
    void everyCounterExistsAtZeroBeforeItsFirstEvent() {
        assertThat(registry.get("recovery.reactivations").counter().count()).isZero();
        assertThat(registry.get("recovery.credential.failures").counter().count())
                .isZero();
        assertThat(registry.find("recovery.ticks").counters())
                .extracting(counter -> counter.getId().getTag("role"))
                .containsExactlyInAnyOrder("leader", "standby");
        assertThat(registry.find("recovery.model.tests").counters())
                .extracting(counter -> counter.getId().getTag("trigger") + "/"
                        + counter.getId().getTag("result"))
                .containsExactlyInAnyOrder(
                        "healthcheck/success",
                        "healthcheck/failure",
                        "healthcheck/not_a_failure",
                        "manual/success",
                        "manual/failure",
                        "manual/not_a_failure");
    }

    @Test
    void countsTicksByRoleReactivationsFailuresAndModelTests() {
        metrics.tick(true);
        metrics.tick(true);
        metrics.tick(false);
        metrics.reactivated();
        metrics.credentialFailed();
        metrics.modelTest("healthcheck", "not_a_failure");

        assertThat(registry.get("recovery.ticks")
                        .tag("role", "leader")
                        .counter()
                        .count())
                .isEqualTo(2.0);
        assertThat(registry.get("recovery.ticks")
                        .tag("role", "standby")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.get("recovery.reactivations").counter().count()).isEqualTo(1.0);
        assertThat(registry.get("recovery.credential.failures").counter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("recovery.model.tests")
                        .tag("trigger", "healthcheck")
                        .tag("result", "not_a_failure")
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }
}
