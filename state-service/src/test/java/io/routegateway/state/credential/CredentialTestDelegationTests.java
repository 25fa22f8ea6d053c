package io.routegateway.state.credential;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.state.support.RecoveryStandIn;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** The credential test is delegated to recovery-service: its answers are passed on, its silence is 503. */
@QuarkusTest
@TestProfile(CredentialTestDelegationTests.WithRecoveryStandIn.class)
class CredentialTestDelegationTests {

    /**
     * state-service pointed at the stand-in, with a 10 s test timeout (the annotation counts in
     * seconds) — far below the stand-in's two-minute stall, far above a cold first call.
     */
    public static class WithRecoveryStandIn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "state.recovery-url",
                    RecoveryStandIn.url(),
                    "quarkus.fault-tolerance.\"io.routegateway.state.recovery.RecoveryClient/test\".timeout.value",
                    "10");
        }
    }

    String credential(RecoveryStandIn.Answer answer) {
        String id = createCredential(unique("cred"), "sk-delegation-000000", Map.of());
        RecoveryStandIn.ANSWERS.put(id, answer);
        return id;
    }

    @Test
    void aPassingTestIsPassedOnWithTheModelSent() {
        String id = credential(RecoveryStandIn.Answer.PASS);
        admin().body(Map.of("model", "gpt-5.6-sol"))
                .post("/admin/v1/credentials/" + id + "/test")
                .then()
                .statusCode(200)
                .body("success", equalTo(true))
                .body("latency_ms", equalTo(12));
        assertThat(RecoveryStandIn.RECEIVED).contains(id + " {\"model\":\"gpt-5.6-sol\"}");
    }

    @Test
    void withoutABodyRecoveryServiceChoosesTheModel() {
        String id = credential(RecoveryStandIn.Answer.PASS);
        admin().post("/admin/v1/credentials/" + id + "/test")
                .then()
                .statusCode(200)
                .body("model", equalTo("gpt-5.6-sol"));
        assertThat(RecoveryStandIn.RECEIVED).contains(id + " {\"model\":null}");
    }

    @Test
    void recoveryServiceRefusalsKeepTheirStatusAndCode() {
        error(
                admin().body(Map.of("model", "x"))
                        .post("/admin/v1/credentials/" + credential(RecoveryStandIn.Answer.UNMAPPED_MODEL) + "/test")
                        .then(),
                400,
                "validation.model");
        error(
                admin().post("/admin/v1/credentials/" + credential(RecoveryStandIn.Answer.UNKNOWN_CREDENTIAL) + "/test")
                        .then(),
                404,
                "not_found");
        error(
                admin().post("/admin/v1/credentials/" + credential(RecoveryStandIn.Answer.SERVER_ERROR) + "/test")
                        .then(),
                502,
                "recovery_failed");
    }

    @Test
    void everyCallPresentsTheInternalToken() {
        String id = credential(RecoveryStandIn.Answer.PASS);
        admin().post("/admin/v1/credentials/" + id + "/test").then().statusCode(200);
        // %test.route.internal-token of application.properties
        assertThat(RecoveryStandIn.AUTHORIZATION)
                .containsEntry(id, "Bearer local-test-internal-token-0123456789abcdef");
    }

    @Test
    void aRefusedInternalTokenIs502AndSaysWhichSettingDiffersWithoutShowingIt() {
        String id = credential(RecoveryStandIn.Answer.TOKEN_REFUSED);
        String body = error(
                        admin().post("/admin/v1/credentials/" + id + "/test").then(), 502, "recovery_failed")
                .body("error.message", containsString("route.internal-token"))
                .extract()
                .asString();
        assertThat(body).doesNotContain("local-test-internal-token");
    }

    @Test
    void aTestThatTakesTooLongIs503() {
        error(
                admin().post("/admin/v1/credentials/" + credential(RecoveryStandIn.Answer.STALL) + "/test")
                        .then(),
                503,
                "recovery_unavailable");
    }

    @Test
    void anUnknownCredentialIsNeverSentToRecoveryService() {
        error(admin().post("/admin/v1/credentials/no-such-credential/test").then(), 404, "not_found");
        assertThat(RecoveryStandIn.RECEIVED).noneMatch(line -> line.startsWith("no-such-credential "));
    }
}
