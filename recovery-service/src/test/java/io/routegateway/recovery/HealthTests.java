package io.routegateway.recovery;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.recovery.health.LeaderElectionHealthCheck;
import io.routegateway.recovery.support.RecoveryTestProfile;
import io.routegateway.testsupport.Management;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

@QuarkusTest
@TestProfile(RecoveryTestProfile.class)
class HealthTests {

    @Test
    void isReadyWithItsDatabaseAndShowsItsLeaderElection() {
        given().when()
                .get(Management.url("/health/ready"))
                .then()
                .statusCode(200)
                .body("status", is("UP"))
                .body(
                        "checks.name",
                        hasItems("Reactive PostgreSQL connections health check", LeaderElectionHealthCheck.NAME))
                .body("checks.find { it.name == '" + LeaderElectionHealthCheck.NAME + "' }.data", hasKey("leader"));
    }

    @Test
    void isLive() {
        given().when()
                .get(Management.url("/health/live"))
                .then()
                .statusCode(200)
                .body("status", is("UP"));
    }

    @Test
    void exposesLeadershipAsAMetric() {
        given().when().get(Management.url("/metrics")).then().statusCode(200).body(containsString("recovery_leader"));
    }

    @Test
    void theApiPortAnswersNeitherHealthNorMetrics() {
        for (String path : new String[] {"/q/health", "/q/health/ready", "/q/health/live", "/q/metrics"}) {
            given().get(path)
                    .then()
                    .statusCode(not(200))
                    .body(not(containsString("\"checks\"")))
                    .body(not(containsString("jvm_")));
        }
    }
}
