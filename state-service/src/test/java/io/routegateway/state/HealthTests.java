package io.routegateway.state;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.testsupport.Management;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;

@QuarkusTest
class HealthTests {

    @Test
    void isReady() {
        given().when()
                .get(Management.url("/health/ready"))
                .then()
                .statusCode(200)
                .body("status", is("UP"));
    }

    @Test
    void isLive() {
        given().when()
                .get(Management.url("/health/live"))
                .then()
                .statusCode(200)
                .body("status", is("UP"));
    }
}
