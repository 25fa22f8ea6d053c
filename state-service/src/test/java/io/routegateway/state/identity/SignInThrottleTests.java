package io.routegateway.state.identity;

import java.util.Map;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.identity.ApiTokenFixtures.as;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.not;

/**
 * Failed admin sign-ins are throttled per source address against the running service: three bad
 * tokens (a huge one and one with a NUL among them) lock the test's address out, and then even the
 * correct token is 429 {@code sign_in_throttled} with {@code Retry-After}; a forwarded-for header
 * does not make another source when the proxy settings do not trust it.
 */
@QuarkusTest
@TestProfile(SignInThrottleTests.ThreeFailures.class)
class SignInThrottleTests {

    /** The throttle on (the test profile turns it off for the other classes) with a small limit. */
    public static class ThreeFailures implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "state.admin.sign-in-throttle.enabled", "true",
                    "state.admin.sign-in-throttle.max-failures", "3",
                    "state.admin.sign-in-throttle.window", "10m",
                    "state.admin.sign-in-throttle.lockout", "10m");
        }
    }

    @Inject
    MeterRegistry registry;

    private double count(String name) {
        return registry.get(name).counter().count();
    }

    @Test
    void aSourceThatFailsTooOftenIs429EvenWithTheCorrectTokenAndAForwardedHeaderChangesNothing() {
        double failuresBefore = count(StateMetrics.SIGN_IN_FAILURES);
        double throttledBefore = count(StateMetrics.SIGN_IN_THROTTLED);

        // no token at all is no guess: answered 401, not counted
        error(given().get("/admin/v1/groups").then(), 401, "unauthorized");
        assertThat(count(StateMetrics.SIGN_IN_FAILURES)).isEqualTo(failuresBefore);

        // three guesses, hostile ones among them: each a plain 401, none a 5xx, none echoed
        String huge = "g".repeat(8_000);
        ValidatableResponse hugeAnswer = error(as(huge).get("/admin/v1/groups").then(), 401, "unauthorized");
        assertThat(hugeAnswer.extract().asString()).doesNotContain(huge.substring(0, 100));
        int nul = given().header("Authorization", "Bearer wrong\u0000token")
                .get("/admin/v1/groups")
                .then()
                .extract()
                .statusCode();
        assertThat(nul).as("a NUL in the header").isIn(400, 401);
        if (nul == 400) {
            // refused by the HTTP layer before authentication: not a sign-in, so one more guess
            error(as("rg_wrongwrongwrongwrongwrong").get("/admin/v1/groups").then(), 401, "unauthorized");
        }
        error(as("not-the-admin-token").get("/admin/v1/groups").then(), 401, "unauthorized");
        assertThat(count(StateMetrics.SIGN_IN_FAILURES)).isEqualTo(failuresBefore + 3);

        // locked out: the correct token too, with Retry-After and the services' error body
        ValidatableResponse throttled = error(
                        as(AdminApiFixtures.TOKEN).get("/admin/v1/groups").then(), 429, "sign_in_throttled")
                .header("Retry-After", not(org.hamcrest.Matchers.emptyOrNullString()));
        long retryAfter = Long.parseLong(throttled.extract().header("Retry-After"));
        assertThat(retryAfter).isBetween(1L, 600L);
        throttled.header("Retry-After", org.hamcrest.Matchers.matchesPattern("\\d+"));

        // a forwarded-for header is no other source unless quarkus.http.proxy.* trusts the proxy
        error(
                given().header("Authorization", "Bearer " + AdminApiFixtures.TOKEN)
                        .header("X-Forwarded-For", "203.0.113.9")
                        .header("Forwarded", "for=203.0.113.9")
                        .get("/admin/v1/groups")
                        .then(),
                429,
                "sign_in_throttled");
        assertThat(count(StateMetrics.SIGN_IN_THROTTLED)).isEqualTo(throttledBefore + 2);
    }
}
