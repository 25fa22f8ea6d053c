package io.routegateway.state.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.routegateway.core.event.AttemptStep;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.Records.logs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/** A request's detail: its attempt chain as the gateway recorded it, stored screened and bounded. */
@QuarkusTest
class RequestDetailTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Test
    void theDetailShowsTheChainInOrderAndOldRecordsShowNone() {
        String accessKey = "key-" + UUID.randomUUID();
        Instant at = Instant.parse("2026-07-03T10:00:00Z");
        List<AttemptStep> chain = List.of(
                new AttemptStep(
                        "cred-a", "glm-5", 429, "upstream_status", "model", 12, "retry_same", "slow down", null),
                new AttemptStep("cred-a", "glm-5", 429, "upstream_status", "model", 9, "fail_over", "slow down", null),
                new AttemptStep("cred-b", "glm-5", 200, null, null, 40, "success", null, null));
        RequestCompleted failedOver = record(accessKey, at).withAttemptChain(chain);
        RequestCompleted old = record(accessKey, at.plusSeconds(1));
        TestKafka.send(Topics.USAGE, "k", json(failedOver));
        TestKafka.send(Topics.USAGE, "k", json(old));
        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 2);

        admin().get("/admin/v1/requests/" + failedOver.requestId())
                .then()
                .statusCode(200)
                .body("request.request_id", equalTo(failedOver.requestId().toString()))
                .body("attempt_chain", hasSize(3))
                .body("attempt_chain[0].decision", equalTo("retry_same"))
                .body("attempt_chain[0].status", equalTo(429))
                .body("attempt_chain[0].failure_kind", equalTo("upstream_status"))
                .body("attempt_chain[0].failure_scope", equalTo("model"))
                .body("attempt_chain[0].error", equalTo("slow down"))
                .body("attempt_chain[1].decision", equalTo("fail_over"))
                .body("attempt_chain[2].credential_id", equalTo("cred-b"))
                .body("attempt_chain[2].decision", equalTo("success"))
                .body("attempt_chain[2].latency_ms", equalTo(40));
        admin().get("/admin/v1/requests/" + old.requestId())
                .then()
                .statusCode(200)
                .body("attempt_chain", hasSize(0));
        // the list stays light: no chain in its items
        admin().get("/admin/v1/requests?access_key_id=" + accessKey)
                .then()
                .statusCode(200)
                .body("items", hasSize(2))
                .body("items[0].attempt_chain", equalTo(null));
    }

    @Test
    void hostileUpstreamTextIsStoredCutAndAsTextAndALongChainIsCutWithAMarker() {
        String accessKey = "key-" + UUID.randomUUID();
        List<AttemptStep> chain = new ArrayList<>();
        String hostile = "<img src=x onerror=alert(1)>\u0000\"quoted\" " + "y".repeat(5_000);
        for (int i = 0; i < 40; i++) {
            chain.add(
                    new AttemptStep("cred-" + i, "m", 502, "upstream_status", "model", 1, "fail_over", hostile, null));
        }
        RequestCompleted record =
                record(accessKey, Instant.parse("2026-07-03T11:00:00Z")).withAttemptChain(chain);
        TestKafka.send(Topics.USAGE, "k", json(record));
        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 1);

        Response detail = admin().get("/admin/v1/requests/" + record.requestId());
        detail.then().statusCode(200).body("attempt_chain", hasSize(AttemptStep.MAX_STEPS));
        String error = detail.path("attempt_chain[0].error");
        assertThat(error)
                .startsWith("<img src=x onerror=alert(1)>\uFFFD\"quoted\" ")
                .hasSize(AttemptStep.MAX_ERROR_CHARS + 1)
                .endsWith("…");
        assertThat((String) detail.path("attempt_chain[" + AttemptStep.HEAD + "].decision"))
                .isEqualTo("omitted");
        assertThat((Integer) detail.path("attempt_chain[" + AttemptStep.HEAD + "].omitted"))
                .isEqualTo(40 - AttemptStep.HEAD - 1);
        assertThat((String) detail.path("attempt_chain[" + (AttemptStep.MAX_STEPS - 1) + "].credential_id"))
                .isEqualTo("cred-39");
        assertThat(detail.getContentType()).startsWith("application/json");
    }

    @Test
    void anUnknownOrMalformedIdIsRefusedWithoutEchoingIt() {
        admin().get("/admin/v1/requests/" + UUID.randomUUID())
                .then()
                .statusCode(404)
                .body("error.code", equalTo("not_found"));
        String hostile = "%3Cscript%3E" + "z".repeat(3000);
        Response refused = admin().get("/admin/v1/requests/" + hostile);
        refused.then().statusCode(400).body("error.code", equalTo("validation.id"));
        assertThat(refused.asString()).doesNotContain("script").doesNotContain("zzz");
        Response notAUuid = admin().get("/admin/v1/requests/not-a-request-id");
        notAUuid.then().statusCode(400).body("error.code", equalTo("validation.id"));
        assertThat(notAUuid.asString()).doesNotContain("not-a-request-id");
    }

    private static RequestCompleted record(String accessKey, Instant at) {
        return new RequestCompleted(
                UUID.randomUUID(),
                at,
                Protocol.OPENAI_CHAT,
                accessKey,
                "g",
                "cred-b",
                "glm-5",
                "glm-5",
                3,
                200,
                null,
                61,
                null,
                10L,
                5L,
                false,
                false,
                true,
                false);
    }
}
