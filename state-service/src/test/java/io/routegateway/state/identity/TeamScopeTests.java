package io.routegateway.state.identity;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.identity.Role;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.identity.ApiTokenFixtures.as;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/** Team roles see and manage their own team's AccessKeys and team only; nothing of another team leaks. */
@QuarkusTest
class TeamScopeTests {

    private static String team() {
        String id = unique("team");
        admin().body(Map.of("id", id, "name", id))
                .post("/admin/v1/teams")
                .then()
                .statusCode(201);
        return id;
    }

    @Test
    void aMemberReadsItsTeamsKeysAndAnotherTeamsKeyIsNotFound() {
        String red = team();
        String blue = team();
        String redKey = createKey(Map.of("name", "red key", "team_id", red))[0];
        String blueKey = createKey(Map.of("name", "blue key", "team_id", blue))[0];
        String member = ApiTokenFixtures.create(AdminApiFixtures.TOKEN, unique("m"), Role.TEAM_MEMBER, red);

        as(member).get("/admin/v1/access-keys/" + redKey).then().statusCode(200).body("team_id", equalTo(red));
        as(member).get("/admin/v1/access-keys/" + redKey + "/spend").then().statusCode(200);
        as(member)
                .get("/admin/v1/access-keys")
                .then()
                .statusCode(200)
                .body("team_id", everyItem(equalTo(red)))
                .body("id", hasItem(redKey))
                .body("id", not(hasItem(blueKey)));
        // another team's key answers exactly as a key that does not exist
        String other = error(as(member).get("/admin/v1/access-keys/" + blueKey).then(), 404, "not_found")
                .extract()
                .path("error.message");
        assertThat(other).isEqualTo("access key " + blueKey + " does not exist");
        error(as(member).get("/admin/v1/access-keys/" + blueKey + "/spend").then(), 404, "not_found");
        as(member).get("/admin/v1/teams/" + red).then().statusCode(200);
        error(as(member).get("/admin/v1/teams/" + blue).then(), 404, "not_found");
        error(as(member).get("/admin/v1/teams/" + blue + "/spend").then(), 404, "not_found");
        // a member never writes, even its own team's key
        error(
                as(member)
                        .body(Map.of("enabled", false))
                        .patch("/admin/v1/access-keys/" + redKey)
                        .then(),
                403,
                "forbidden");
        admin().get("/admin/v1/access-keys/" + redKey).then().body("enabled", equalTo(true));
    }

    @Test
    void aTeamAdminCannotCreateOrMoveAKeyOutsideItsTeam() {
        String red = team();
        String blue = team();
        String blueKey = createKey(Map.of("name", "blue key", "team_id", blue))[0];
        String teamAdmin = ApiTokenFixtures.create(AdminApiFixtures.TOKEN, unique("ta"), Role.TEAM_ADMIN, red);

        String redKey = as(teamAdmin)
                .body(Map.of("name", "made by the team", "team_id", red))
                .post("/admin/v1/access-keys")
                .then()
                .statusCode(201)
                .extract()
                .path("access_key.id");
        error(
                as(teamAdmin)
                        .body(Map.of("name", "no team"))
                        .post("/admin/v1/access-keys")
                        .then(),
                403,
                "forbidden");
        error(
                as(teamAdmin)
                        .body(Map.of("name", "x", "team_id", blue))
                        .post("/admin/v1/access-keys")
                        .then(),
                403,
                "forbidden");
        error(
                as(teamAdmin)
                        .body(Map.of("team_id", blue))
                        .patch("/admin/v1/access-keys/" + redKey)
                        .then(),
                403,
                "forbidden");
        error(
                as(teamAdmin)
                        .body(Map.of("enabled", false))
                        .patch("/admin/v1/access-keys/" + blueKey)
                        .then(),
                404,
                "not_found");
        error(as(teamAdmin).delete("/admin/v1/access-keys/" + blueKey).then(), 404, "not_found");
        admin().get("/admin/v1/access-keys/" + blueKey).then().statusCode(200).body("enabled", equalTo(true));
        as(teamAdmin)
                .body(Map.of("enabled", false))
                .patch("/admin/v1/access-keys/" + redKey)
                .then()
                .statusCode(200);
        as(teamAdmin).get("/admin/v1/access-keys/" + redKey).then().body("team_id", equalTo(red));
    }
}
