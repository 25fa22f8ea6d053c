package io.routegateway.e2e.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.EventLedger;
import io.routegateway.e2e.support.Load;
import io.routegateway.e2e.support.OutcomeTap;
import io.routegateway.testsupport.InfraSelection;
import io.routegateway.testsupport.TestInfrastructure;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL restarts under load ({@code pg_ctlcluster <version> main restart}, as root): the gateway
 * keeps serving, state-service retries what failed while the database was away and resumes; no event
 * is lost or applied twice. Restarting the machine's server interrupts every other client of it:
 * {@code -De2e.postgres.restart=false} skips this test.
 */
class PostgresRestartIT extends EndToEndTest {

    @Test
    void stateServiceResumesAfterAPostgresRestartWithNothingLost() throws Exception {
        Assumptions.assumeTrue(
                !"false".equals(System.getProperty("e2e.postgres.restart")),
                "PostgresRestartIT skipped: -De2e.postgres.restart=false");
        Assumptions.assumeTrue(
                "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/pg_ctlcluster")),
                "PostgresRestartIT skipped: restarting PostgreSQL needs root and pg_ctlcluster (user "
                        + System.getProperty("user.name") + ")");
        Assumptions.assumeTrue(
                TestInfrastructure.postgresSource() == InfraSelection.Source.LOCAL,
                "PostgresRestartIT skipped: the database is a container, not the local cluster");
        String version = system.database().serverMajorVersion();
        Assumptions.assumeTrue(
                Files.isDirectory(Path.of("/etc/postgresql", version, "main")),
                "PostgresRestartIT skipped: no cluster " + version + "/main on this machine");

        MixedTraffic traffic = MixedTraffic.create(system);
        EventLedger ledger = EventLedger.start(system);
        try (Load load = Load.start(system.gateway(), traffic.accessKey(), MixedTraffic.MODELS, 2)) {
            load.awaitMore(40);

            long restartBegan = System.nanoTime();
            String output = restart(version);
            long restartMillis = (System.nanoTime() - restartBegan) / 1_000_000;
            load.awaitMore(60);
            load.stop();

            assertThat(load.errors())
                    .as("client-visible errors: %s", load.errorSamples())
                    .isZero();
            EventLedger.Counts counts = ledger.settle(traffic.credentials(), false, Duration.ofMinutes(3));
            List<OutcomeTap.Outcome> produced = ledger.produced(traffic.credentials());
            long flakySolFailures = traffic.flakyModelFailures(produced);
            boolean ready = awaitReady();
            EventLedger.summary(
                    "PostgresRestartIT",
                    "requests=" + load.requests(),
                    "client_errors=" + load.errors(),
                    "pg_restart_ms=" + restartMillis,
                    counts,
                    "flaky_sol_failures=" + flakySolFailures,
                    "state_ready_again=" + ready,
                    "pg_ctlcluster=\"" + output.strip() + "\"");

            assertThat(counts.missing()).as("produced but never applied").isEmpty();
            assertThat(counts.applied() + counts.acknowledged()).isEqualTo(counts.produced());
            Map<String, Object> row = modelRow(traffic.flaky(), MixedTraffic.UPSTREAM_SOL);
            assertThat(MixedTraffic.failureCount(row))
                    .as("each failure applied once")
                    .isEqualTo(flakySolFailures);
            assertThat(system.admin()
                            .call("GET", "/credentials/" + traffic.healthy(), null)
                            .status())
                    .as("the admin API serves again")
                    .isEqualTo(200);
            assertThat(ready)
                    .as(
                            "state-service ready again; /q/health/ready: %s",
                            system.state().readiness())
                    .isTrue();
        } finally {
            system.demo().reset(traffic.flaky());
        }
    }

    /** Whether state-service reports ready again within a minute (every check of its readiness UP). */
    private static boolean awaitReady() {
        try {
            await("state-service ready again")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> system.state().ready());
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    private static String restart(String version) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart")
                .redirectErrorStream(true)
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("pg_ctlcluster restart did not finish within 120 s");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Assumptions.assumeTrue(
                process.exitValue() == 0,
                "PostgresRestartIT skipped: pg_ctlcluster restart was refused (exit " + process.exitValue() + "): "
                        + output);
        return output;
    }
}
