package io.routegateway.state.identity;

import java.security.SecureRandom;
import java.time.OffsetDateTime;
import java.util.Map;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.identity.ApiTokenSecret;
import io.routegateway.state.support.AdminApiFixtures;
import io.routegateway.state.support.OutcomeFixtures;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.identity.ApiTokenFixtures.as;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.hamcrest.Matchers.equalTo;

/**
 * {@code state.admin.break-glass=false} turns the bootstrap token off: it is then refused like any
 * wrong token (401), while an API token keeps working, and its writes are audited as its own.
 */
@QuarkusTest
@TestProfile(BreakGlassOffTests.Off.class)
class BreakGlassOffTests {

    /** The bootstrap token stays configured, but is no longer accepted. */
    public static class Off implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("state.admin.break-glass", "false");
        }
    }

    @Inject
    Pool pool;

    /** An admin API token stored as the API stores one (its SHA-256), since the break-glass token cannot create it. */
    private String adminToken() {
        String token = ApiTokenSecret.generate(new SecureRandom());
        String id = unique("tok");
        OutcomeFixtures.await(() -> pool.preparedQuery("INSERT INTO api_tokens (id, name, role, team_id, token_hash,"
                        + " token_prefix, created_by, created_at, updated_at) VALUES ($1, $2, 'admin', NULL, $3, $4,"
                        + " 'test', $5, $5)")
                .execute(Tuple.of(
                        id,
                        "automation " + id,
                        ApiTokenSecret.hash(token),
                        token.substring(0, ApiTokenSecret.DISPLAY_PREFIX_LENGTH),
                        OffsetDateTime.now()))
                .replaceWithVoid());
        return token;
    }

    @Test
    void theBootstrapTokenIs401AndAnApiTokenStillWorks() {
        error(as(AdminApiFixtures.TOKEN).get("/admin/v1/groups").then(), 401, "unauthorized");
        error(
                as(AdminApiFixtures.TOKEN)
                        .body(Map.of("id", unique("grp"), "name", "x"))
                        .post("/admin/v1/groups")
                        .then(),
                401,
                "unauthorized");
        String token = adminToken();
        as(token).get("/admin/v1/groups").then().statusCode(200);
        String group = unique("grp");
        as(token)
                .body(Map.of("id", group, "name", "made without break-glass"))
                .post("/admin/v1/groups")
                .then()
                .statusCode(201);
        as(token)
                .get("/admin/v1/audit?resource_type=groups&resource_id=" + group)
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(1))
                .body("items[0].via", equalTo("api_token"));
    }
}
