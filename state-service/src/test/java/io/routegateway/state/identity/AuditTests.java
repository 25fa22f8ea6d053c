package io.routegateway.state.identity;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.routegateway.core.identity.Role;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.routegateway.state.identity.ApiTokenFixtures.as;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;

/** Every admin write leaves exactly one audit entry, in its own transaction; the log is read-only. */
@QuarkusTest
class AuditTests {

    private static List<Map<String, Object>> entries(String query) {
        return admin().get("/admin/v1/audit?" + query)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    @Test
    void aWriteRecordsWhoWhatAndTheChange() {
        String name = unique("ops-bot");
        String operator = ApiTokenFixtures.create(AdminApiFixtures.TOKEN, name, Role.OPERATOR, null);
        String group = unique("grp");
        as(operator)
                .header("X-Request-Id", "req-" + group)
                .body(Map.of("id", group, "name", "first"))
                .post("/admin/v1/groups")
                .then()
                .statusCode(201);
        as(operator)
                .body(Map.of("name", "second"))
                .patch("/admin/v1/groups/" + group)
                .then()
                .statusCode(200);
        as(operator).delete("/admin/v1/groups/" + group).then().statusCode(204);

        List<Map<String, Object>> log = entries("resource_type=groups&resource_id=" + group);
        assertThat(log).hasSize(3);
        // newest first
        assertThat(log).extracting(row -> row.get("method")).containsExactly("DELETE", "PATCH", "POST");
        assertThat(log).allSatisfy(row -> {
            assertThat(row.get("subject")).isEqualTo(name);
            assertThat(row.get("via")).isEqualTo("api_token");
            assertThat(row.get("resource_type")).isEqualTo("groups");
        });
        Map<String, Object> created = log.get(2);
        assertThat(created.get("request_id")).isEqualTo("req-" + group);
        assertThat(created.get("before")).isNull();
        assertThat(((Map<?, ?>) created.get("after")).get("name")).isEqualTo("first");
        Map<String, Object> patched = log.get(1);
        // only the changed fields: the unchanged id is not repeated
        assertThat(((Map<?, ?>) patched.get("before")).get("name")).isEqualTo("first");
        assertThat(((Map<?, ?>) patched.get("before")).containsKey("id")).isFalse();
        assertThat(((Map<?, ?>) patched.get("after")).get("name")).isEqualTo("second");
        Map<String, Object> deleted = log.get(0);
        assertThat(((Map<?, ?>) deleted.get("before")).get("name")).isEqualTo("second");
        assertThat(deleted.get("after")).isNull();
    }

    @Test
    void aRefusedWriteRecordsNothing() {
        String group = unique("grp");
        admin().body(Map.of("id", group, "name", "x", "credential_ids", List.of("no-such-credential")))
                .post("/admin/v1/groups")
                .then()
                .statusCode(400);
        assertThat(entries("resource_type=groups&resource_id=" + group)).isEmpty();
    }

    @Test
    void theBreakGlassTokenIsRecordedAsSuch() {
        String group = AdminApiFixtures.createGroup(Map.of("id", unique("grp"), "name", "bg"));
        Map<String, Object> entry = entries("resource_id=" + group).get(0);
        assertThat(entry.get("subject")).isEqualTo("break-glass");
        assertThat(entry.get("via")).isEqualTo("break_glass");
    }

    @Test
    void secretsNeverReachTheLog() {
        String secret = "sk-audit-" + unique("s");
        String credential = AdminApiFixtures.createCredential(unique("cred"), secret, Map.of());
        admin().body(Map.of("secret", secret + "-2"))
                .patch("/admin/v1/credentials/" + credential)
                .then()
                .statusCode(200);
        String created = admin().body(Map.of("name", "k", "role", "viewer"))
                .post("/admin/v1/api-tokens")
                .then()
                .statusCode(201)
                .extract()
                .path("token");
        String listing = admin().get("/admin/v1/audit?limit=500")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(listing).contains(credential).doesNotContain(secret).doesNotContain(created);
    }

    @Test
    void theLogIsExportedAsCsvAndNdjsonWithTheListingsFiltersAndNoSecret() {
        String secret = "sk-export-" + unique("s");
        String credential = AdminApiFixtures.createCredential(unique("cred"), secret, Map.of());
        admin().body(Map.of("secret", secret + "-2", "name", "renamed"))
                .patch("/admin/v1/credentials/" + credential)
                .then()
                .statusCode(200);
        java.time.Instant now = java.time.Instant.now();
        String range =
                "from=" + now.minus(java.time.Duration.ofDays(1)) + "&to=" + now.plus(java.time.Duration.ofDays(1));

        String csv = admin().get("/admin/v1/audit/export?resource_id=" + credential + "&" + range)
                .then()
                .statusCode(200)
                .contentType(org.hamcrest.Matchers.startsWith("text/csv"))
                .extract()
                .asString();
        String ndjson = admin().get("/admin/v1/audit/export?format=ndjson&resource_id=" + credential + "&" + range)
                .then()
                .statusCode(200)
                .contentType(org.hamcrest.Matchers.startsWith("application/x-ndjson"))
                .extract()
                .asString();

        java.util.List<String> lines = csv.lines().toList();
        assertThat(lines.get(0))
                .isEqualTo("id,occurred_at,subject,via,token_id,method,path,resource_type,resource_id,before_json,"
                        + "after_json,request_id");
        assertThat(lines).hasSize(3); // the header, the create, the PATCH: oldest first
        assertThat(lines.get(1)).contains("POST").contains(credential);
        assertThat(lines.get(2)).contains("PATCH").contains("break-glass");
        assertThat(csv).doesNotContain(secret).contains("renamed");
        java.util.List<String> objects = ndjson.lines().toList();
        assertThat(objects).hasSize(2);
        JsonPath patch = new JsonPath(objects.get(1));
        assertThat(patch.getString("method")).isEqualTo("PATCH");
        assertThat(patch.getString("resource_id")).isEqualTo(credential);
        assertThat(patch.getString("occurred_at")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z");
        assertThat(ndjson).doesNotContain(secret);
    }

    @Test
    void hostileExportsAreRefusedBeforeAnythingIsRead() {
        String range = "from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z";
        String[][] cases = {
            {"format=csv", "validation.query"},
            {"from=2026-01-01T00:00:00Z", "validation.query"},
            {"from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "validation.query"},
            {"from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", "validation.query"},
            {range + "&format=xlsx", "validation.query"},
            {range + "&format=%3Cscript%3E", "validation.query"},
            {range + "&limit=5", "validation.unknown_field"},
            {range + "&subjct=x", "validation.unknown_field"},
            {range + "&%3Cimg%3E=1", "validation.unknown_field"},
            {"from=yesterday&to=today", "validation.query"},
            {range + "&cursor=5", "validation.unknown_field"},
        };
        for (String[] hostile : cases) {
            String body = admin().get("/admin/v1/audit/export?" + hostile[0])
                    .then()
                    .statusCode(400)
                    .extract()
                    .asString();
            assertThat(new JsonPath(body).getString("error.code"))
                    .as(hostile[0])
                    .isEqualTo(hostile[1]);
            assertThat(body).as(hostile[0]).doesNotContain("<script>").doesNotContain("<img>");
        }
        // a huge or NUL-bearing filter value finds nothing or is refused, never a server error
        String huge = "x".repeat(20_000);
        admin().get("/admin/v1/audit/export?" + range + "&subject=" + huge)
                .then()
                .statusCode(org.hamcrest.Matchers.lessThan(500));
        admin().get("/admin/v1/audit/export?" + range + "&subject=a%00b")
                .then()
                .statusCode(org.hamcrest.Matchers.lessThan(500));
    }

    @Test
    void filtersAndCursorPaging() {
        String name = unique("pager");
        String operator = ApiTokenFixtures.create(AdminApiFixtures.TOKEN, name, Role.OPERATOR, null);
        for (int i = 0; i < 3; i++) {
            as(operator)
                    .body(Map.of("id", unique("grp"), "name", "g" + i))
                    .post("/admin/v1/groups")
                    .then()
                    .statusCode(201);
        }
        JsonPath first = admin().get("/admin/v1/audit?limit=2&subject=" + name)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(first.getList("items")).hasSize(2);
        String cursor = first.getString("next_cursor");
        JsonPath second = admin().get("/admin/v1/audit?limit=2&subject=" + name + "&cursor=" + cursor)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(second.getList("items")).hasSize(1);
        assertThat(second.getList("items.id", Long.class).get(0))
                .isLessThan(first.getList("items.id", Long.class).get(1));
        assertThat(admin().get("/admin/v1/audit?subject=" + name + "&from=2999-01-01T00:00:00Z")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items"))
                .isEmpty();
        error(admin().get("/admin/v1/audit?from=yesterday").then(), 400, "validation.query");
        error(admin().get("/admin/v1/audit?cursor=abc").then(), 400, "validation.query");
    }

    @jakarta.inject.Inject
    AuditRetention retention;

    @Test
    void webhookWritesAreRecordedInTheirTransactionWithoutTheSecret() {
        String id = unique("webhook");
        String secret = "whsec-audit-" + unique("s");
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("id", id);
        body.put("url", "https://hooks.example.com/route");
        body.put("event_types", List.of("credential.revoked"));
        body.put("secret", secret);
        admin().body(body).post("/admin/v1/webhooks").then().statusCode(201);
        admin().body(Map.of("enabled", false))
                .patch("/admin/v1/webhooks/" + id)
                .then()
                .statusCode(200);
        admin().delete("/admin/v1/webhooks/" + id).then().statusCode(204);
        // a refused write (the id is gone) leaves nothing
        admin().delete("/admin/v1/webhooks/" + id).then().statusCode(404);
        List<Map<String, Object>> log = entries("resource_type=webhooks&resource_id=" + id);
        assertThat(log).extracting(row -> row.get("method")).containsExactly("DELETE", "PATCH", "POST");
        assertThat(((Map<?, ?>) log.get(1).get("after")).get("enabled")).isEqualTo(false);
        assertThat(admin().get("/admin/v1/audit?resource_id=" + id)
                        .then()
                        .extract()
                        .asString())
                .doesNotContain(secret);
    }

    @Test
    void retentionPrunesOnlyEntriesOlderThanItsWindow() {
        String group = AdminApiFixtures.createGroup(Map.of("id", unique("grp"), "name", "kept"));
        assertThat(entries("resource_id=" + group)).hasSize(1);
        // now: nothing is older than 400 days
        io.routegateway.state.support.OutcomeFixtures.await(() -> retention.prune(java.time.Instant.now()));
        assertThat(entries("resource_id=" + group)).hasSize(1);
        // 401 days on, the entry is past the window
        Long pruned = io.routegateway.state.support.OutcomeFixtures.await(
                () -> retention.prune(java.time.Instant.now().plus(java.time.Duration.ofDays(401))));
        assertThat(pruned).isGreaterThanOrEqualTo(1L);
        assertThat(entries("resource_id=" + group)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"PUT", "PATCH", "DELETE", "POST"})
    void theLogCannotBeChangedThroughTheApi(String method) {
        String group = AdminApiFixtures.createGroup(Map.of("id", unique("grp"), "name", "kept as written"));
        String query = "resource_type=groups&resource_id=" + group;
        String before = admin().get("/admin/v1/audit?" + query)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        long id = admin().get("/admin/v1/audit?" + query)
                .then()
                .extract()
                .jsonPath()
                .getLong("items[0].id");
        String change = "{\"subject\":\"someone-else\",\"after\":null}";
        var response = admin().body(change).request(method, "/admin/v1/audit");
        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.jsonPath().getString("error.code")).isNotBlank();
        // the entry's own path, and the listing's filters as if they named it: nothing but GET exists
        for (String path : new String[] {"/admin/v1/audit/" + id, "/admin/v1/audit?id=" + id + "&" + query}) {
            var one = admin().body(change).request(method, path);
            assertThat(one.statusCode()).as(method + " " + path).isIn(404, 405);
        }
        // not even an operator or a team admin, who may write elsewhere
        for (Role role : new Role[] {Role.OPERATOR, Role.TEAM_ADMIN}) {
            var other = as(AccessMatrixTests.tokens().get(role)).body(change).request(method, "/admin/v1/audit/" + id);
            assertThat(other.statusCode()).as(role + " " + method).isIn(403, 404, 405);
        }
        // the entry is exactly as it was, and still one
        assertThat(admin().get("/admin/v1/audit?" + query)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .isEqualTo(before);
        assertThat(entries(query)).hasSize(1);
    }
}
