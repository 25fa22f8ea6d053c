package io.routegateway.gateway;

import java.time.Duration;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.testsupport.Management;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

@QuarkusTest
class HealthTests {

    @Inject
    Vertx vertx;

    @Test
    @EnabledOnOs(value = OS.LINUX, architectures = "amd64")
    void runsOnTheNativeTransportOnLinux() {
        // quarkus.vertx.prefer-native-transport with the epoll jar on the class path; without either,
        // Vert.x silently runs on NIO
        assertThat(vertx.isNativeTransportEnabled()).isTrue();
    }

    @Test
    void becomesReady() {
        // ready once the pool view has read the state topics to their end; in the full build those
        // hold every snapshot the state-service tests published, so catching up takes a moment
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> given().when()
                        .get(Management.url("/health/ready"))
                        .then()
                        .statusCode(200)
                        .body("status", is("UP"))
                        // and once the lease reader has read its peers' leases up to where they stood
                        .body("checks.find { it.name == 'admissions' }.status", is("UP")));
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
