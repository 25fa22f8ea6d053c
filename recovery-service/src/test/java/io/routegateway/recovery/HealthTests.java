package io.routegateway.recovery;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

@QuarkusTest
class HealthTests {

    @Test
    void isReadyWithItsDatabase() {
        given().when()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", is("UP"))
                .body("checks.name", hasItem("Reactive PostgreSQL connections health check"));
    }

    @Test
    void isLive() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", is("UP"));
    }
}
