package io.routegateway.recovery.schedule;

import java.time.Duration;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.routegateway.testsupport.Management;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The scheduler itself drives the ticks, every {@code recovery.tick-seconds}. */
@QuarkusTest
@TestProfile(ScheduledTickingTests.OneSecondTicks.class)
class ScheduledTickingTests {

    public static class OneSecondTicks implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("recovery.tick-seconds", "1");
        }
    }

    static double leaderTicks() {
        String metrics = RestAssured.get(Management.url("/metrics")).asString();
        return metrics.lines()
                .filter(line -> line.startsWith("recovery_ticks_total{") && line.contains("role=\"leader\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void theSchedulerTicksAndTheOnlyReplicaLeads() {
        await().atMost(Duration.ofSeconds(30)).until(() -> leaderTicks() >= 1);
        double seen = leaderTicks();

        await().atMost(Duration.ofSeconds(30)).until(() -> leaderTicks() >= seen + 2);
        assertThat(RestAssured.get(Management.url("/metrics")).asString()).contains("recovery_leader 1.0");
    }
}
