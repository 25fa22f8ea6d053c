package io.routegateway.state.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.Records.logs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * Success rate and latency per credential: the figures the endpoint reads from the rollups equal the
 * traffic sent through the usage topic (records stored by the consumer, folded by the database's
 * trigger), probes and traffic outside the window left out.
 */
@QuarkusTest
class CredentialTrafficApiTests {

    @Test
    void theFiguresEqualTheTrafficSent() {
        String accessKey = "key-" + UUID.randomUUID();
        String busy = "cred-busy-" + UUID.randomUUID();
        String slow = "cred-slow-" + UUID.randomUUID();
        Instant now = Instant.now();
        List<RequestCompleted> sent = new ArrayList<>();
        // busy: 8 successes at 40..110 ms, 2 failures at 600 ms, a probe and a request two hours ago
        for (int i = 0; i < 8; i++) {
            sent.add(record(accessKey, busy, now.minusSeconds(i * 60L), true, false, 40 + i * 10));
        }
        sent.add(record(accessKey, busy, now, false, false, 600));
        sent.add(record(accessKey, busy, now.minusSeconds(1_800), false, false, 600));
        sent.add(record(accessKey, busy, now, false, true, 5));
        sent.add(record(accessKey, busy, now.minus(Duration.ofHours(2)), false, false, 90_000));
        // slow: one success at 3 s
        sent.add(record(accessKey, slow, now, true, false, 3_000));
        for (RequestCompleted r : sent) {
            TestKafka.send(Topics.USAGE, "k", json(r));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> logs(accessKey).size() == sent.size());

        Response answer = admin().get("/admin/v1/overview/credentials");
        answer.then().statusCode(200).body("window", equalTo("1h"));
        Map<String, Object> busyFigures = figures(answer, busy);
        assertThat(((Number) busyFigures.get("requests")).longValue()).isEqualTo(10);
        assertThat(((Number) busyFigures.get("failures")).longValue()).isEqualTo(2);
        assertThat(((Number) busyFigures.get("success_rate")).doubleValue()).isCloseTo(0.8, within(1e-6));
        // (40 + 50 + ... + 110) + 2 × 600 = 600 + 1200, over 10 requests
        assertThat(((Number) busyFigures.get("mean_latency_ms")).longValue()).isEqualTo(180);
        // 40..90 ms in the first bucket (< 100), 100 and 110 in the second (< 250), 600 in (500, 1000]
        assertThat(((Number) busyFigures.get("p50_latency_ms")).longValue()).isEqualTo(100);
        assertThat(((Number) busyFigures.get("p95_latency_ms")).longValue()).isEqualTo(1_000);

        Map<String, Object> slowFigures = figures(answer, slow);
        assertThat(((Number) slowFigures.get("requests")).longValue()).isEqualTo(1);
        assertThat(((Number) slowFigures.get("success_rate")).doubleValue()).isCloseTo(1.0, within(1e-6));
        assertThat(((Number) slowFigures.get("mean_latency_ms")).longValue()).isEqualTo(3_000);
        assertThat(((Number) slowFigures.get("p50_latency_ms")).longValue()).isEqualTo(5_000);

        // five minutes hold busy's 5 newest successes and its newest failure
        Map<String, Object> recent = figures(admin().get("/admin/v1/overview/credentials?window=5m"), busy);
        assertThat(((Number) recent.get("requests")).longValue()).isBetween(5L, 7L);
        assertThat(((Number) recent.get("failures")).longValue()).isEqualTo(1);
    }

    @Test
    void aBadWindowOrAnUnknownParameterIsRefusedWithACodeAndNotEchoed() {
        Response window = admin().get("/admin/v1/overview/credentials?window=<script>" + "w".repeat(2000));
        window.then().statusCode(400).body("error.code", equalTo("validation.query"));
        assertThat(window.asString()).doesNotContain("<script>").doesNotContain("www");

        admin().get("/admin/v1/overview/credentials?window=2h")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("validation.query"));
        admin().get("/admin/v1/overview/credentials?window=1h%00")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("validation.query"));
        admin().get("/admin/v1/overview/credentials?window=60")
                .then()
                .statusCode(400)
                .body("error.code", equalTo("validation.query"));

        Response unknown = admin().get("/admin/v1/overview/credentials?windw=1h");
        unknown.then().statusCode(400).body("error.code", equalTo("validation.unknown_field"));
        assertThat(unknown.asString()).contains("windw");
        Response hostileName = admin().get("/admin/v1/overview/credentials?%3Cb%3E" + "x".repeat(1000) + "=1");
        hostileName.then().statusCode(400).body("error.code", equalTo("validation.unknown_field"));
        assertThat(hostileName.asString()).doesNotContain("<b>").doesNotContain("xxxx");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> figures(Response answer, String credentialId) {
        List<Map<String, Object>> credentials = answer.path("credentials");
        return credentials.stream()
                .filter(c -> credentialId.equals(c.get("credential_id")))
                .findFirst()
                .orElseThrow(() -> new AssertionError(credentialId + " not in " + answer.asString()));
    }

    private static RequestCompleted record(
            String accessKey, String credential, Instant at, boolean success, boolean probe, int latencyMs) {
        return new RequestCompleted(
                UUID.randomUUID(),
                at,
                Protocol.OPENAI_CHAT,
                accessKey,
                "g",
                credential,
                "m",
                "m",
                1,
                success ? 200 : 502,
                success ? null : "upstream_status",
                latencyMs,
                40L,
                10L,
                5L,
                false,
                false,
                success,
                probe);
    }
}
