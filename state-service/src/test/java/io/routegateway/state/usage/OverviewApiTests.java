package io.routegateway.state.usage;

import java.time.Duration;
import java.time.Instant;
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

/** The landing overview counts the window's client traffic from the rollups, failovers from the chains. */
@QuarkusTest
class OverviewApiTests {

    @Test
    void newTrafficMovesTheNumbersAndProbesDoNot() {
        Response before = admin().get("/admin/v1/overview?window=5m");
        before.then().statusCode(200);
        long requestsBefore = ((Number) before.path("requests")).longValue();
        long failoversBefore = ((Number) before.path("failovers")).longValue();

        String accessKey = "key-" + UUID.randomUUID();
        Instant now = Instant.now();
        List<AttemptStep> failedOver = List.of(
                new AttemptStep("a", "m", 503, "upstream_status", "model", 5, "fail_over", "down", null),
                new AttemptStep("b", "m", 200, null, null, 5, "success", null, null));
        RequestCompleted served = record(accessKey, now, true, false).withAttemptChain(failedOver);
        RequestCompleted failed = record(accessKey, now, false, false);
        RequestCompleted probe = record(accessKey, now, true, true);
        for (RequestCompleted r : List.of(served, failed, probe)) {
            TestKafka.send(Topics.USAGE, "k", json(r));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> logs(accessKey).size() == 3);

        Response after = admin().get("/admin/v1/overview?window=5m");
        after.then().statusCode(200);
        assertThat(((Number) after.path("requests")).longValue() - requestsBefore)
                .as("two client requests, the probe left out")
                .isEqualTo(2);
        assertThat(((Number) after.path("failovers")).longValue() - failoversBefore)
                .isEqualTo(1);
        assertThat((List<?>) after.path("minutes")).hasSize(5);
        assertThat((List<?>) after.path("top_keys")).isNotEmpty();
        assertThat(after.asString()).contains("\"p95_latency_ms\"").contains("\"success_rate\"");
    }

    @Test
    void usageGroupsByUtcHour() {
        String accessKey = "key-" + UUID.randomUUID();
        Instant nine = Instant.parse("2026-07-04T09:15:00Z");
        for (Instant at : List.of(nine, nine.plusSeconds(60), nine.plusSeconds(3600))) {
            TestKafka.send(Topics.USAGE, "k", json(record(accessKey, at, true, false)));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> logs(accessKey).size() == 3);
        admin().get("/admin/v1/usage?group_by=hour&access_key_id=" + accessKey)
                .then()
                .statusCode(200)
                .body("group_by", equalTo("hour"))
                .body("rows.key", org.hamcrest.Matchers.contains("2026-07-04T09:00Z", "2026-07-04T10:00Z"))
                .body("rows.requests", org.hamcrest.Matchers.contains(2, 1));
    }

    @Test
    void anUnknownWindowIsRefusedWithoutEchoingIt() {
        Response refused = admin().get("/admin/v1/overview?window=<script>" + "w".repeat(2000));
        refused.then().statusCode(400).body("error.code", equalTo("validation.query"));
        assertThat(refused.asString()).doesNotContain("<script>").doesNotContain("www");
    }

    private static RequestCompleted record(String accessKey, Instant at, boolean success, boolean probe) {
        return new RequestCompleted(
                UUID.randomUUID(),
                at,
                Protocol.OPENAI_CHAT,
                accessKey,
                "g",
                "b",
                "m",
                "m",
                2,
                success ? 200 : 502,
                success ? null : "no_available_credential",
                120,
                40L,
                10L,
                5L,
                false,
                false,
                success,
                probe);
    }
}
