package io.routegateway.e2e.fault;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.Load;
import io.routegateway.e2e.support.OutcomeTap;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * state-service is killed (SIGKILL) under mixed healthy/failing traffic and started again: clients
 * see no error (the gateway routes from its own view), and after the restart every outcome event is
 * applied exactly once — the redelivered ones are recognised as duplicates.
 */
class StateServiceKillIT extends EndToEndTest {

    @Test
    void killingStateServiceUnderLoadLosesAndDoublesNothing() {
        MixedTraffic traffic = MixedTraffic.create(system);
        EventLedger ledger = EventLedger.start(system);
        long requestsWhileDown;
        long downMillis;
        // 2 clients, 5 requests per second each: steady through a restart that may take a while
        try (Load load = Load.start(system.gateway(), traffic.accessKey(), MixedTraffic.MODELS, 2, 200)) {
            load.awaitMore(40);

            long killedAt = System.nanoTime();
            system.state().kill();
            long atKill = load.requests();
            load.awaitMore(40);
            system.state().start();
            system.state().awaitReady(Duration.ofMinutes(3));
            downMillis = (System.nanoTime() - killedAt) / 1_000_000;
            requestsWhileDown = load.requests() - atKill;
            load.awaitMore(40);
            load.stop();

            assertThat(load.errors())
                    .as("client-visible errors: %s", load.errorSamples())
                    .isZero();

            EventLedger.Counts counts = ledger.settle(traffic.credentials(), true, Duration.ofMinutes(3));
            List<OutcomeTap.Outcome> produced = ledger.produced(traffic.credentials());
            long flakySolFailures = traffic.flakyModelFailures(produced);
            EventLedger.summary(
                    "StateServiceKillIT",
                    "requests=" + load.requests(),
                    "client_errors=" + load.errors(),
                    "requests_while_state_down=" + requestsWhileDown,
                    "state_down_ms=" + downMillis,
                    counts,
                    "flaky_sol_failures=" + flakySolFailures);

            assertThat(counts.missing()).as("produced but never applied").isEmpty();
            assertThat(counts.applied() + counts.acknowledged()).isEqualTo(counts.produced());
            assertThat(counts.dropped()).isZero();
            await("the flaky model's failure count settles")
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> {
                        Map<String, Object> row = modelRow(traffic.flaky(), MixedTraffic.UPSTREAM_SOL);
                        assertThat(MixedTraffic.failureCount(row))
                                .as("each failure applied exactly once")
                                .isEqualTo(flakySolFailures);
                    });
        } finally {
            system.demo().reset(traffic.flaky());
        }
    }
}
