package io.routegateway.recovery.rest;

import java.time.Duration;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.routegateway.recovery.support.RecoveryIntegrationTest;
import io.routegateway.recovery.support.RecoveryTestProfile;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.recovery.support.TestCredentials.credential;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * recovery-service's API answers only a caller with the internal token ({@code route.internal-token},
 * the test profile's value): anyone else gets 401 {@code unauthorized} and nothing happens — no
 * upstream call, no outcome event (so no state change in state-service), no usage record.
 */
@QuarkusTest
@TestProfile(RecoveryTestProfile.class)
class InternalTokenTests extends RecoveryIntegrationTest {

    /** {@code %test.route.internal-token} of application.properties. */
    static final String TOKEN = "local-test-internal-token-0123456789abcdef";

    static final String AUTHORIZATION = "Bearer " + TOKEN;

    String errorAccount() {
        upstream.replySuccess();
        return credentials.insert(credential()
                .status("error")
                .baseUrl(upstream.baseUrl())
                .config("{\"model_mappings\":[{\"from\":\"alpha\",\"to\":\"up-alpha\"}]}"));
    }

    RequestSpecification call() {
        return given().contentType(ContentType.JSON).body("{\"model\":\"alpha\"}");
    }

    void refused(RequestSpecification request, String id, String message) {
        request.post("/recovery/v1/credentials/{id}/test", id)
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", "Bearer")
                .body("error.code", is(InternalTokenFilter.CODE))
                .body("error.message", containsString(message))
                .body(not(containsString(TOKEN)));
    }

    @Test
    void withoutTheTokenATestIsRefusedAndNothingRunsOrChanges() {
        String id = errorAccount();

        refused(call(), id, "needs Authorization: Bearer");
        refused(call().header("Authorization", "Basic " + TOKEN), id, "needs Authorization: Bearer");
        refused(call().header("Authorization", "Bearer " + TOKEN + "x"), id, "not valid");
        refused(call().header("Authorization", "Bearer local-dev-internal-token-0123456789abcdef"), id, "not valid");
        // the header value arrives trimmed: "Bearer" alone names no token
        refused(call().header("Authorization", "Bearer "), id, "needs Authorization: Bearer");

        // The same test with the token runs; its events come after anything the refused calls could have sent.
        call().header("Authorization", AUTHORIZATION)
                .post("/recovery/v1/credentials/{id}/test", id)
                .then()
                .statusCode(200)
                .body("success", is(true));
        await().atMost(Duration.ofSeconds(20)).until(() -> !topics.usage(id).isEmpty());
        assertThat(upstream.received())
                .as("only the authenticated test reached the upstream")
                .hasSize(1);
        assertThat(topics.usage(id)).hasSize(1);
        assertThat(topics.outcomes(id)).hasSize(1);
    }

    @Test
    void unknownPathsAreRefusedBeforeMatchingSoNothingAboutTheApiLeaks() {
        given().get("/recovery/v1/credentials").then().statusCode(401).body("error.code", is(InternalTokenFilter.CODE));
        given().get("/no-such-path").then().statusCode(401).body("error.code", is(InternalTokenFilter.CODE));
        given().header("Authorization", AUTHORIZATION)
                .get("/no-such-path")
                .then()
                .statusCode(404);
    }
}
