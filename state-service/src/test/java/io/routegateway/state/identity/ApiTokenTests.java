package io.routegateway.state.identity;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.identity.Role;
import io.routegateway.state.support.AdminApiFixtures;
import io.routegateway.state.support.OutcomeFixtures;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.identity.ApiTokenFixtures.as;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/** API tokens: shown once, stored hashed, scoped to a role, expiring, revocable; hostile input refused. */
@QuarkusTest
class ApiTokenTests {

    @Inject
    Pool pool;

    private static String token(Role role, String team) {
        return ApiTokenFixtures.create(AdminApiFixtures.TOKEN, unique("tok"), role, team);
    }

    private static String idOf(String token) {
        return admin()
                .get("/admin/v1/api-tokens")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("")
                .stream()
                .filter(row -> token.startsWith((String) row.get("token_prefix")))
                .map(row -> (String) row.get("id"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theTokenIsShownOnceAndOnlyItsHashIsStored() {
        String name = unique("ci");
        var created = admin().body(Map.of("name", name, "role", "viewer"))
                .post("/admin/v1/api-tokens")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        String token = created.getString("token");
        String id = created.getString("api_token.id");
        assertThat(token).startsWith("rgt-");
        assertThat(created.getString("api_token.role")).isEqualTo("viewer");
        String listing = admin().get("/admin/v1/api-tokens")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(listing).contains(id).doesNotContain(token).doesNotContain("token_hash");
        String stored =
                OutcomeFixtures.await(() -> pool.preparedQuery("SELECT token_hash FROM api_tokens WHERE id = $1")
                        .execute(Tuple.of(id))
                        .map(rows -> rows.iterator().next().getString(0)));
        assertThat(stored).hasSize(64).doesNotContain(token.substring(4));
    }

    @Test
    void aTokenActsWithItsRoleAndRecordsItsLastUse() {
        String viewer = token(Role.VIEWER, null);
        as(viewer).get("/admin/v1/groups").then().statusCode(200);
        error(as(viewer).body(Map.of("name", "x")).post("/admin/v1/groups").then(), 403, "forbidden");
        admin().get("/admin/v1/api-tokens")
                .then()
                .body(
                        "find { it.token_prefix == '" + viewer.substring(0, 8) + "' }.last_used_at",
                        not(org.hamcrest.Matchers.nullValue()));
    }

    @Test
    void anExpiredTokenIs401() {
        String operator = token(Role.OPERATOR, null);
        String id = idOf(operator);
        as(operator).get("/admin/v1/groups").then().statusCode(200);
        OutcomeFixtures.await(() -> pool.preparedQuery("UPDATE api_tokens SET expires_at = $2 WHERE id = $1")
                .execute(Tuple.of(id, java.time.OffsetDateTime.now().minusMinutes(1)))
                .replaceWithVoid());
        error(as(operator).get("/admin/v1/groups").then(), 401, "unauthorized");
    }

    @Test
    void aRevokedTokenIs401() {
        String operator = token(Role.OPERATOR, null);
        as(operator).get("/admin/v1/groups").then().statusCode(200);
        admin().delete("/admin/v1/api-tokens/" + idOf(operator)).then().statusCode(204);
        error(as(operator).get("/admin/v1/groups").then(), 401, "unauthorized");
    }

    @Test
    void aTamperedTokenIs401() {
        String viewer = token(Role.VIEWER, null);
        String tampered = viewer.substring(0, viewer.length() - 1) + (viewer.endsWith("A") ? "B" : "A");
        error(as(tampered).get("/admin/v1/groups").then(), 401, "unauthorized");
    }

    @Test
    void aTokenCannotCreateATokenAboveItsOwnRights() {
        String operator = token(Role.OPERATOR, null);
        error(
                as(operator)
                        .body(Map.of("name", "up", "role", "admin"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                403,
                "forbidden");
        // within its rights it can
        as(operator)
                .body(Map.of("name", "down", "role", "viewer"))
                .post("/admin/v1/api-tokens")
                .then()
                .statusCode(201);
        String teamAdmin = token(Role.TEAM_ADMIN, AccessMatrixTests.TEAM);
        error(
                as(teamAdmin)
                        .body(Map.of("name", "x", "role", "operator"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                403,
                "forbidden");
        error(
                as(teamAdmin)
                        .body(Map.of("name", "x", "role", "team_member", "team_id", "another-team"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                403,
                "forbidden");
    }

    @Test
    void roleEscalationThroughPatchOfOnesOwnTokenIsRefused() {
        String operator = token(Role.OPERATOR, null);
        String id = idOf(operator);
        error(
                as(operator)
                        .body(Map.of("role", "admin"))
                        .patch("/admin/v1/api-tokens/" + id)
                        .then(),
                400,
                "validation.immutable_field");
        error(
                as(operator)
                        .body(Map.of("team_id", "x"))
                        .patch("/admin/v1/api-tokens/" + id)
                        .then(),
                400,
                "validation.immutable_field");
        // still an operator
        error(
                as(operator)
                        .body(Map.of("log_level", "x"))
                        .patch("/admin/v1/settings")
                        .then(),
                403,
                "forbidden");
        // name and expiry do change
        String later = Instant.now()
                .plus(30, ChronoUnit.DAYS)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        as(operator)
                .body(Map.of("name", "renamed", "expires_at", later))
                .patch("/admin/v1/api-tokens/" + id)
                .then()
                .statusCode(200)
                .body("name", org.hamcrest.Matchers.equalTo("renamed"))
                .body("role", org.hamcrest.Matchers.equalTo("operator"));
    }

    @Test
    void anOperatorNeitherSeesNorRevokesAnAdminToken() {
        String adminToken = token(Role.ADMIN, null);
        String adminId = idOf(adminToken);
        String operator = token(Role.OPERATOR, null);
        as(operator).get("/admin/v1/api-tokens").then().statusCode(200).body("id", not(hasItem(adminId)));
        error(as(operator).delete("/admin/v1/api-tokens/" + adminId).then(), 404, "not_found");
        as(adminToken).get("/admin/v1/groups").then().statusCode(200);
    }

    @Test
    void hostileInputIsRefusedWithACode() {
        error(
                admin().body(Map.of("name", "a\u0000b", "role", "viewer"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.name");
        error(
                admin().body(Map.of("name", "x".repeat(100_000), "role", "viewer"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.name");
        error(
                admin().body(Map.of("name", 5, "role", "viewer"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.field_type");
        error(
                admin().body(Map.of("name", "x", "role", "root"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.role");
        error(
                admin().body(Map.of("name", "x", "role", "viewer", "scopes", List.of("all")))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.unknown_field");
        error(
                admin().body(Map.of("name", "x", "role", "team_member"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.role");
        error(
                admin().body(Map.of("name", "x", "role", "viewer", "team_id", "t"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.role");
        error(
                admin().body(Map.of("name", "x", "role", "team_member", "team_id", "no-such-team"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.team_id");
        error(
                admin().body(Map.of("name", "x", "role", "viewer", "expires_at", "2001-01-01T00:00:00Z"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.expires_at");
        error(
                admin().body(Map.of("name", "x", "role", "viewer", "expires_at", "tomorrow"))
                        .post("/admin/v1/api-tokens")
                        .then(),
                400,
                "validation.field_type");
        error(admin().body("[]").post("/admin/v1/api-tokens").then(), 400, "validation.malformed_json");
        // a long (beyond any token, within the header limit) or NUL-bearing bearer token is 401, never a 500 or a
        // lookup
        error(as("rgt-" + "a".repeat(4_000)).get("/admin/v1/groups").then(), 401, "unauthorized");
        error(as("rgt-abcdefghijklmnopqrstuvwxyz%00").get("/admin/v1/groups").then(), 401, "unauthorized");
        // the name is never echoed back in an error
        admin().body(Map.of("name", "x", "role", "<script>"))
                .post("/admin/v1/api-tokens")
                .then()
                .statusCode(400)
                .body("error.message", not(org.hamcrest.Matchers.containsString("<script>")));
        admin().get("/admin/v1/api-tokens")
                .then()
                .statusCode(200)
                .body("name", everyItem(not(org.hamcrest.Matchers.containsString("\u0000"))));
    }
}
