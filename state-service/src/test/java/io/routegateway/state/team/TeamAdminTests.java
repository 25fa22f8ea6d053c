package io.routegateway.state.team;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Limits;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.TeamEntity;
import io.routegateway.state.support.SignedRecords;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** {@code /admin/v1/teams}: CRUD, paging, hostile input, the delete guard, and {@code team.v1} on {@code route.teams}. */
@QuarkusTest
class TeamAdminTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    static String createTeam(Map<String, Object> fields) {
        return admin().body(fields)
                .post("/admin/v1/teams")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    @Test
    void aTeamIsCreatedReadUpdatedAndDeletedAndEveryWriteIsPublishedSigned() {
        String id = unique("team");
        admin().body(Map.of(
                        "id",
                        id,
                        "name",
                        "Research",
                        "weight",
                        3,
                        "limits",
                        Map.of(
                                "rpm_limit", 600,
                                "tpm_limit", 200000,
                                "max_parallel_requests", 20,
                                "max_budget", 50.5,
                                "budget_duration", "1mo")))
                .post("/admin/v1/teams")
                .then()
                .statusCode(201)
                .body("id", equalTo(id))
                .body("name", equalTo("Research"))
                .body("weight", equalTo(3))
                .body("key_count", equalTo(0))
                .body("version", equalTo(1))
                .body("limits.rpm_limit", equalTo(600))
                .body("limits.tpm_limit", equalTo(200000))
                .body("limits.max_parallel_requests", equalTo(20))
                .body("limits.max_budget", equalTo(50.5f))
                .body("limits.budget_duration", equalTo("1mo"))
                .body("created_at", notNullValue())
                .body("updated_at", notNullValue());
        admin().get("/admin/v1/teams/" + id).then().statusCode(200).body("limits.max_budget", equalTo(50.5f));

        // an object replaces every limit: the ones left out are gone
        admin().body(Map.of("weight", 5, "limits", Map.of("rpm_limit", 60)))
                .patch("/admin/v1/teams/" + id)
                .then()
                .statusCode(200)
                .body("weight", equalTo(5))
                .body("name", equalTo("Research"))
                .body("version", equalTo(2))
                .body("limits.rpm_limit", equalTo(60))
                .body("limits.max_budget", nullValue())
                .body("limits", hasKey("budget_duration"));
        HashMap<String, Object> clear = new HashMap<>();
        clear.put("limits", null);
        admin().body(clear)
                .patch("/admin/v1/teams/" + id)
                .then()
                .statusCode(200)
                .body("version", equalTo(3))
                .body("limits.rpm_limit", nullValue())
                .body("limits", hasKey("tpm_limit"));

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.TEAMS, id);
            assertThat(records).hasSize(3);
            TeamSnapshot first = Json.MAPPER.readValue(records.get(0).value(), TeamSnapshot.class);
            assertThat(first.version()).isEqualTo(1);
            assertThat(first.limits().maxBudget()).isEqualByComparingTo("50.5");
            assertThat(first.limits().tpmLimit()).isEqualTo(200_000L);
            TeamSnapshot last = Json.MAPPER.readValue(records.get(2).value(), TeamSnapshot.class);
            assertThat(last.version()).isEqualTo(3);
            assertThat(last.weight()).isEqualTo(5);
            assertThat(last.limits()).isEqualTo(Limits.NONE);
            assertThat(records.get(2).value()).contains("\"type\":\"team.v1\"");
            SignedRecords.assertSigned(records);
        });

        admin().delete("/admin/v1/teams/" + id).then().statusCode(204);
        error(admin().get("/admin/v1/teams/" + id).then(), 404, "not_found");
        error(admin().delete("/admin/v1/teams/" + id).then(), 404, "not_found");
        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.TEAMS, id);
            assertThat(records).hasSize(4);
            assertThat(records.get(3).value()).isNull();
            SignedRecords.assertSigned(records);
            // the team had a budget: its spend record is tombstoned too
            List<ConsumerRecord<String, String>> spend = TestKafka.readKey(Topics.SPEND, "team:" + id);
            assertThat(spend).isNotEmpty();
            assertThat(spend.get(spend.size() - 1).value()).isNull();
            SignedRecords.assertSigned(spend);
        });
    }

    @Test
    void aTeamWithoutLimitsShowsAllFiveAsNullAndWeightOne() {
        String id = createTeam(Map.of("name", "plain"));
        assertThat(id).matches("team-[a-z0-9]{12}");
        admin().get("/admin/v1/teams/" + id)
                .then()
                .statusCode(200)
                .body("weight", equalTo(1))
                .body("limits.size()", equalTo(5))
                .body("limits.rpm_limit", nullValue())
                .body("limits.tpm_limit", nullValue())
                .body("limits.max_parallel_requests", nullValue())
                .body("limits.max_budget", nullValue())
                .body("limits.budget_duration", nullValue());
    }

    @Test
    void theListIsPagedOldestFirstAndEveryTeamAppearsOnce() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            created.add(createTeam(Map.of("id", unique("page"), "name", "page " + i)));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 1000; pages++) {
            var request = admin().queryParam("limit", 2);
            if (cursor != null) {
                request = request.queryParam("cursor", cursor);
            }
            Response page = request.get("/admin/v1/teams");
            page.then().statusCode(200);
            List<String> ids = page.path("items.id");
            assertThat(ids.size()).isLessThanOrEqualTo(2);
            seen.addAll(ids);
            cursor = page.path("next_cursor");
            if (cursor == null) {
                break;
            }
        }
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(seen.stream().filter(created::contains).toList()).containsExactlyElementsOf(created);
        error(admin().queryParam("limit", 0).get("/admin/v1/teams").then(), 400, "validation.query");
        error(admin().queryParam("limit", 501).get("/admin/v1/teams").then(), 400, "validation.query");
        error(admin().queryParam("cursor", "<script>").get("/admin/v1/teams").then(), 400, "validation.query");
    }

    @Test
    void hostileBodiesAreRefusedWithACodeAndNothingIsStored() {
        String huge = "x".repeat(100_000);
        Map<String, String> bodies = new java.util.LinkedHashMap<>();
        bodies.put("{\"id\":\"%s\",\"name\":\"a\\u0000b\"}", "validation.name");
        bodies.put("{\"id\":\"%s\",\"name\":\"" + huge + "\"}", "validation.name");
        bodies.put("{\"id\":\"%s\",\"name\":5}", "validation.field_type");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"weight\":\"5\"}", "validation.field_type");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"weight\":true}", "validation.field_type");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"weight\":0}", "validation.team_weight");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"weight\":-3}", "validation.team_weight");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"weight\":1001}", "validation.team_weight");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"weight\":4294967296}", "validation.field_type");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"wieght\":5}", "validation.unknown_field");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"key_count\":5}", "validation.unknown_field");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":\"none\"}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"rpm_limit\":0}}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"rpm_limit\":-1}}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"rpm_limit\":10000001}}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"tpm_limit\":1e300}}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"max_parallel_requests\":1.5}}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"max_budget\":-1}}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"max_budget\":\"5\"}}", "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"budget_duration\":\"1d\"}}", "validation.limits");
        bodies.put(
                "{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"max_budget\":1,\"budget_duration\":\"1y\"}}",
                "validation.limits");
        bodies.put("{\"id\":\"%s\",\"name\":\"n\",\"limits\":{\"max_budget\":1,\"rpm\":5}}", "validation.limits");
        for (Map.Entry<String, String> body : bodies.entrySet()) {
            String id = unique("hostile");
            Response answer = admin().body(String.format(body.getKey(), id)).post("/admin/v1/teams");
            error(answer.then(), 400, body.getValue());
            assertThat(answer.asString()).as(body.getKey()).doesNotContain(huge.substring(0, 100));
            error(admin().get("/admin/v1/teams/" + id).then(), 404, "not_found");
        }
        error(admin().body("[1]").post("/admin/v1/teams").then(), 400, "validation.malformed_json");
        error(admin().body("{\"name\":").post("/admin/v1/teams").then(), 400, "validation.malformed_json");

        // a refused update changes nothing
        String id = createTeam(Map.of("name", "kept", "weight", 7));
        for (String patch : List.of(
                "{\"name\":\"changed\",\"weight\":0}",
                "{\"name\":\"changed\",\"limits\":{\"rpm_limit\":0}}",
                "{\"name\":\"changed\",\"nmae\":\"x\"}",
                "{\"id\":\"other-id\",\"name\":\"changed\"}")) {
            assertThat(admin().body(patch).patch("/admin/v1/teams/" + id).statusCode())
                    .as(patch)
                    .isEqualTo(400);
        }
        admin().get("/admin/v1/teams/" + id)
                .then()
                .statusCode(200)
                .body("name", equalTo("kept"))
                .body("weight", equalTo(7))
                .body("version", equalTo(1));
    }

    @Test
    void anIdIsEchoedOnlyWhenItIsWellFormed() {
        String attack = "<script>alert(1)</script>";
        Response unknown = admin().get("/admin/v1/teams/" + attack);
        error(unknown.then(), 404, "not_found");
        assertThat(unknown.asString()).doesNotContain("<script").doesNotContain("alert(");
        Response created = admin().body(Map.of("id", attack, "name", "n")).post("/admin/v1/teams");
        error(created.then(), 400, "validation.id");
        assertThat(created.asString()).doesNotContain("<script");
        Response spend = admin().get("/admin/v1/teams/" + attack + "/spend");
        error(spend.then(), 404, "not_found");
        assertThat(spend.asString()).doesNotContain("<script");
        error(admin().urlEncodingEnabled(false).get("/admin/v1/teams/a%00b").then(), 400, "validation.id");
        error(admin().get("/admin/v1/teams/" + "t".repeat(65)).then(), 400, "validation.id");

        String id = createTeam(Map.of("name", "echo"));
        error(admin().get("/admin/v1/teams/" + id + "x").then(), 404, "not_found")
                .body("error.message", equalTo("team " + id + "x does not exist"));
        Response renamed = admin().body(Map.of("id", attack)).patch("/admin/v1/teams/" + id);
        error(renamed.then(), 400, "validation.id");
        assertThat(renamed.asString()).doesNotContain("<script");
        error(
                admin().body(Map.of("name", "n", "id", id))
                        .post("/admin/v1/teams")
                        .then(),
                409,
                "conflict");
    }

    @Test
    void aTeamThatStillOwnsKeysIsNotDeleted() {
        String team = createTeam(Map.of("name", "owner"));
        String key = createKey(Map.of("name", "member", "team_id", team))[0];
        admin().get("/admin/v1/teams/" + team).then().statusCode(200).body("key_count", equalTo(1));

        error(admin().delete("/admin/v1/teams/" + team).then(), 409, "team.has_keys");
        admin().get("/admin/v1/teams/" + team).then().statusCode(200).body("key_count", equalTo(1));
        admin().get("/admin/v1/access-keys/" + key).then().statusCode(200).body("team_id", equalTo(team));

        HashMap<String, Object> leave = new HashMap<>();
        leave.put("team_id", null);
        admin().body(leave)
                .patch("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("team_id", nullValue());
        admin().get("/admin/v1/teams/" + team).then().statusCode(200).body("key_count", equalTo(0));
        admin().delete("/admin/v1/teams/" + team).then().statusCode(204);
    }

    @Test
    void deletingATeamWhileKeysJoinItNeverLeavesAKeyInAMissingTeam() throws Exception {
        for (int round = 0; round < 3; round++) {
            String team = createTeam(Map.of("name", "race " + round));
            ExecutorService threads = Executors.newFixedThreadPool(6);
            try {
                List<Future<Response>> joins = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    joins.add(threads.submit(() -> admin().body(Map.of("name", "joiner", "team_id", team))
                            .post("/admin/v1/access-keys")));
                }
                Future<Response> delete = threads.submit(() -> admin().delete("/admin/v1/teams/" + team));
                int joined = 0;
                for (Future<Response> join : joins) {
                    Response answer = join.get();
                    if (answer.statusCode() == 201) {
                        joined++;
                    } else {
                        error(answer.then(), 400, "validation.team_id");
                    }
                }
                Response deleted = delete.get();
                long members = inSession(() -> AccessKeyEntity.count("teamId", team));
                TeamEntity row = inSession(() -> TeamEntity.<TeamEntity>findById(team));
                if (deleted.statusCode() == 204) {
                    assertThat(joined).isZero();
                    assertThat(row).isNull();
                } else {
                    error(deleted.then(), 409, "team.has_keys");
                    assertThat(row).isNotNull();
                    assertThat(members).isEqualTo(joined).isPositive();
                }
            } finally {
                threads.shutdownNow();
            }
        }
    }
}
