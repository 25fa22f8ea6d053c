package io.routegateway.recovery;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.recovery.health.LeaderElectionHealthCheck;
import io.routegateway.recovery.support.RecoveryTestProfile;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;

@QuarkusTest
@TestProfile(RecoveryTestProfile.class)
class HealthTests {

    @Test
    void isReadyWithItsDatabaseAndShowsItsLeaderElection() {
        given().when()
                .get("/q/health/ready")
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
        given().when().get("/q/health/live").then().statusCode(200).body("status", is("UP"));
    }

    @Test
    void exposesLeadershipAsAMetric() {
        given().when().get("/q/metrics").then().statusCode(200).body(containsString("recovery_leader"));
    }
}
