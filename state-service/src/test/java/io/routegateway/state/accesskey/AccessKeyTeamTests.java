package io.routegateway.state.accesskey;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.BudgetDuration;
import io.routegateway.core.limits.Limits;
import io.routegateway.state.support.SignedRecords;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;

/** An AccessKey's team and limits: taken on create and update, shown, and published in {@code access-key.v1}. */
@QuarkusTest
class AccessKeyTeamTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static String createTeam(String name) {
        return admin().body(Map.of("name", name))
                .post("/admin/v1/teams")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    @Test
    void aKeyTakesATeamAndLimitsShowsThemAndPublishesThem() {
        String team = createTeam("platform");
        String key = createKey(Map.of(
                "name",
                "limited",
                "team_id",
                team,
                "limits",
                Map.of("rpm_limit", 30, "max_budget", 2.5, "budget_duration", "1d")))[0];
        admin().get("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("team_id", equalTo(team))
                .body("limits.rpm_limit", equalTo(30))
                .body("limits.tpm_limit", nullValue())
                .body("limits.max_budget", equalTo(2.5f))
                .body("limits.budget_duration", equalTo("1d"));

        await().atMost(PATIENCE).untilAsserted(() -> {
            AccessKeySnapshot published = latest(key);
            assertThat(published.teamId()).isEqualTo(team);
            assertThat(published.limits())
                    .isEqualTo(new Limits(30, null, null, new java.math.BigDecimal("2.5"), BudgetDuration.DAY));
            // a key with a budget has its (empty) window's spend published at once
            List<ConsumerRecord<String, String>> spend = TestKafka.readKey(Topics.SPEND, "key:" + key);
            assertThat(spend).hasSize(1);
            SpendSnapshot snapshot = Json.MAPPER.readValue(spend.get(0).value(), SpendSnapshot.class);
            assertThat(snapshot.spendMicros()).isZero();
            assertThat(snapshot.subject()).isEqualTo("key");
            assertThat(snapshot.windowEnd()).isAfter(snapshot.windowStart());
            SignedRecords.assertSigned(spend);
        });

        HashMap<String, Object> leave = new HashMap<>();
        leave.put("team_id", null);
        leave.put("limits", null);
        admin().body(leave)
                .patch("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("team_id", nullValue())
                .body("limits.rpm_limit", nullValue())
                .body("limits", hasKey("max_budget"));
        await().atMost(PATIENCE).untilAsserted(() -> {
            AccessKeySnapshot published = latest(key);
            assertThat(published.teamId()).isNull();
            assertThat(published.limits()).isEqualTo(Limits.NONE);
        });

        // fields left out stay; the team can be set on update
        admin().body(Map.of("team_id", team))
                .patch("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("team_id", equalTo(team));
        admin().body(Map.of("name", "renamed"))
                .patch("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("team_id", equalTo(team));
        admin().get("/admin/v1/access-keys")
                .then()
                .statusCode(200)
                .body("find { it.id == '" + key + "' }.team_id", equalTo(team));

        admin().delete("/admin/v1/access-keys/" + key).then().statusCode(204);
        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> spend = TestKafka.readKey(Topics.SPEND, "key:" + key);
            assertThat(spend.get(spend.size() - 1).value()).isNull();
        });
    }

    @Test
    void anUnknownOrMalformedTeamIsRefusedAndNothingIsStored() {
        String id = unique("ak");
        Response unknown = admin().body(Map.of("id", id, "name", "k", "team_id", "no-such-team"))
                .post("/admin/v1/access-keys");
        error(unknown.then(), 400, "validation.team_id");
        error(admin().get("/admin/v1/access-keys/" + id).then(), 404, "not_found");

        String attack = "<img src=x onerror=alert(1)>";
        Response malformed =
                admin().body(Map.of("id", id, "name", "k", "team_id", attack)).post("/admin/v1/access-keys");
        error(malformed.then(), 400, "validation.team_id");
        assertThat(malformed.asString()).doesNotContain("<img").doesNotContain("onerror");
        error(
                admin().body("{\"id\":\"" + id + "\",\"name\":\"k\",\"team_id\":5}")
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.field_type");
        error(
                admin().body("{\"id\":\"" + id + "\",\"name\":\"k\",\"team_id\":\"a\\u0000b\"}")
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.team_id");
        error(
                admin().body(Map.of("id", id, "name", "k", "team_id", "t".repeat(10_000)))
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.team_id");
        error(admin().get("/admin/v1/access-keys/" + id).then(), 404, "not_found");

        // an update naming an unknown team changes nothing, its other fields included
        String key = createKey(Map.of("name", "stays"))[0];
        error(
                admin().body(Map.of("name", "changed", "team_id", "no-such-team"))
                        .patch("/admin/v1/access-keys/" + key)
                        .then(),
                400,
                "validation.team_id");
        admin().get("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("name", equalTo("stays"))
                .body("team_id", nullValue())
                .body("version", equalTo(1));
    }

    @Test
    void badLimitsAreRefusedWithTheLimitsCode() {
        String key = createKey(Map.of("name", "limits"))[0];
        for (String limits : List.of(
                "\"fast\"",
                "[]",
                "{\"rpm_limit\":0}",
                "{\"rpm_limit\":-5}",
                "{\"tpm_limit\":1000000000001}",
                "{\"max_parallel_requests\":100001}",
                "{\"max_budget\":-0.5}",
                "{\"max_budget\":1e12}",
                "{\"max_budget\":true}",
                "{\"budget_duration\":\"1mo\"}",
                "{\"max_budget\":5,\"budget_duration\":\"weekly\"}",
                "{\"rpm_limt\":5}")) {
            error(
                    admin().body("{\"limits\":" + limits + "}")
                            .patch("/admin/v1/access-keys/" + key)
                            .then(),
                    400,
                    "validation.limits");
            error(
                    admin().body("{\"name\":\"k\",\"limits\":" + limits + "}")
                            .post("/admin/v1/access-keys")
                            .then(),
                    400,
                    "validation.limits");
        }
        admin().get("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("version", equalTo(1))
                .body("limits.rpm_limit", nullValue());
    }

    private static AccessKeySnapshot latest(String key) throws Exception {
        List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.ACCESS_KEYS, key);
        assertThat(records).isNotEmpty();
        return Json.MAPPER.readValue(records.get(records.size() - 1).value(), AccessKeySnapshot.class);
    }
}
