package io.routegateway.state;

import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.testsupport.Management;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * Health and metrics are on the management port only, and the metrics' uri tags are bounded: paths a
 * client chooses (random, with {@code ;} parameters, unauthenticated) add no series.
 */
@QuarkusTest
class ManagementPortTests {

    static final Pattern URI_TAG = Pattern.compile("http_server_requests_seconds_count\\{[^}]*uri=\"([^\"]*)\"");

    static Set<String> uriTags() {
        String metrics = given().get(Management.url("/metrics"))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Matcher matcher = URI_TAG.matcher(metrics);
        return matcher.results().map(result -> result.group(1)).collect(Collectors.toSet());
    }

    @Test
    void theSigningKeysRotationDateIsExportedAsSecondsLeft() {
        String metrics = given().get(Management.url("/metrics"))
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Matcher series = Pattern.compile(
                        "route_key_material_expiry_seconds\\{[^}]*material=\"state_signing_key\"[^}]*} (\\S+)")
                .matcher(metrics);

        assertThat(series.find()).as("the state-signing key's series").isTrue();
        double secondsLeft = Double.parseDouble(series.group(1));
        double expected = java.time.Duration.between(
                        java.time.Instant.now(), java.time.Instant.parse("2099-01-01T00:00:00Z"))
                .toSeconds();
        // %test.route.state-signing.not-after; within a day of it, whatever the clock did since the start
        assertThat(secondsLeft).isBetween(expected - 86_400, expected + 86_400);
        assertThat(metrics).doesNotContain("material=\"kafka_truststore\"");
    }

    @Test
    void theApiPortAnswersNeitherHealthNorMetrics() {
        for (String path : new String[] {"/q/health", "/q/health/ready", "/q/health/live", "/q/metrics"}) {
            given().get(path)
                    .then()
                    .statusCode(404)
                    .body(not(containsString("\"status\"")))
                    .body(not(containsString("jvm_")));
        }
    }

    @Test
    void randomUnauthenticatedPathsAddNoMetricsSeriesPerRequest() {
        // one round first, so every bounded uri value these requests can produce exists already
        hostileRound("warm-up");
        Set<String> before = uriTags();

        int requests = 120;
        for (int i = 0; i < requests; i++) {
            hostileRound(UUID.randomUUID().toString());
        }

        Set<String> after = uriTags();
        assertThat(after).as("uri tags after %d hostile rounds", requests).isEqualTo(before);
        assertThat(after).noneMatch(uri -> uri.contains(";") || uri.contains("warm-up"));
    }

    /** Unauthenticated admin paths with and without ;parameters, and paths that exist nowhere. */
    private static void hostileRound(String random) {
        given().get("/admin/v1/credentials;" + random).then().statusCode(401);
        given().get("/admin/v1/" + random).then().statusCode(401);
        // a ;parameter in the first segment is still the admin API: the token is asked first
        given().get("/admin;" + random + "/v1/groups").then().statusCode(401);
        given().get("/" + random + ";jsessionid=" + random).then().statusCode(404);
        given().get("/console/" + random).then().statusCode(404);
    }
}
