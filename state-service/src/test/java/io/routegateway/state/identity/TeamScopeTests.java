package io.routegateway.state.identity;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.identity.Role;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.support.AdminApiFixtures;
import io.routegateway.state.support.Records;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.identity.ApiTokenFixtures.as;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/**
 * Team roles see and manage their own team's AccessKeys, limits within the team's, the team, its
 * usage, spend, request log and route check only; nothing of another team leaks: another team's id
 * is answered exactly as an id that does not exist, naming another team is 403 whether it exists or
 * not.
 */
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

    /** One request of {@code key}, charged to {@code team}, stored through the usage topic as the gateway sends it. */
    private static RequestCompleted request(String key, String team) {
        RequestCompleted record = new RequestCompleted(
                        UUID.randomUUID(),
                        Instant.now().truncatedTo(ChronoUnit.MILLIS),
                        Protocol.OPENAI_CHAT,
                        key,
                        "g",
                        "cred-team-scope",
                        "m-team",
                        "m-team",
                        1,
                        200,
                        null,
                        20,
                        null,
                        7L,
                        3L,
                        false,
                        false,
                        true,
                        false)
                .withTeam(team);
        TestKafka.send(Topics.USAGE, key, json(record));
        return record;
    }

    /** A body with the id in its message replaced, to compare two 404s whose ids differ. */
    private static String withoutId(Response response, String id) {
        return response.asString().replace(id, "<id>");
    }

    @Test
    void aMemberSeesItsTeamsRequestsAndUsageOnlyAndAnotherTeamsRequestIsAMissingOne() {
        String red = team();
        String blue = team();
        String redKey = createKey(Map.of("name", "red key", "team_id", red))[0];
        String blueKey = createKey(Map.of("name", "blue key", "team_id", blue))[0];
        RequestCompleted redRequest = request(redKey, red);
        RequestCompleted blueRequest = request(blueKey, blue);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> Records.logs(redKey).size() == 1
                        && Records.logs(blueKey).size() == 1);
        String member = ApiTokenFixtures.create(AdminApiFixtures.TOKEN, unique("m"), Role.TEAM_MEMBER, red);

        // the request log: cut to the team whether team_id is sent or not
        as(member)
                .get("/admin/v1/requests?limit=500")
                .then()
                .statusCode(200)
                .body("items.team_id", everyItem(equalTo(red)))
                .body("items.request_id", hasItem(redRequest.requestId().toString()))
                .body("items.request_id", not(hasItem(blueRequest.requestId().toString())));
        as(member)
                .get("/admin/v1/requests?team_id=" + red)
                .then()
                .statusCode(200)
                .body("items.request_id", hasItem(redRequest.requestId().toString()));
        // another team's key as a filter finds what a missing key finds: nothing
        as(member)
                .get("/admin/v1/requests?access_key_id=" + blueKey)
                .then()
                .statusCode(200)
                .body("items", org.hamcrest.Matchers.empty());
        // naming another team is refused, the same whether it exists or not
        Response otherTeam = as(member).get("/admin/v1/requests?team_id=" + blue);
        error(otherTeam.then(), 403, "forbidden");
        Response noTeam = as(member).get("/admin/v1/requests?team_id=" + unique("no-such-team"));
        assertThat(noTeam.statusCode()).isEqualTo(403);
        assertThat(noTeam.asString()).isEqualTo(otherTeam.asString()).doesNotContain(blue);

        // the request detail: another team's request is the 404 of a request that does not exist
        as(member)
                .get("/admin/v1/requests/" + redRequest.requestId())
                .then()
                .statusCode(200)
                .body("request.team_id", equalTo(red));
        String blueId = blueRequest.requestId().toString();
        String missingId = UUID.randomUUID().toString();
        Response other = as(member).get("/admin/v1/requests/" + blueId);
        Response missing = as(member).get("/admin/v1/requests/" + missingId);
        error(other.then(), 404, "not_found");
        error(missing.then(), 404, "not_found");
        assertThat(withoutId(other, blueId)).isEqualTo(withoutId(missing, missingId));
        assertThat(other.getHeaders().asList().stream()
                        .map(header -> header.getName())
                        .sorted()
                        .toList())
                .isEqualTo(missing.getHeaders().asList().stream()
                        .map(header -> header.getName())
                        .sorted()
                        .toList());
        // an admin still sees it
        admin().get("/admin/v1/requests/" + blueId).then().statusCode(200);

        // usage: the team's numbers only
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> as(member)
                        .get("/admin/v1/usage?group_by=team")
                        .then()
                        .statusCode(200)
                        .body("rows.key", equalTo(List.of(red)))
                        .body("total.requests", equalTo(1)));
        as(member)
                .get("/admin/v1/usage?group_by=access_key")
                .then()
                .statusCode(200)
                .body("rows.key", equalTo(List.of(redKey)));
        error(as(member).get("/admin/v1/usage?team_id=" + blue).then(), 403, "forbidden");
        // the export too
        String from = Instant.now().minus(Duration.ofHours(1)).toString();
        String to = Instant.now().plus(Duration.ofHours(1)).toString();
        String csv = as(member)
                .get("/admin/v1/usage/export?from=" + from + "&to=" + to)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(csv)
                .contains(redRequest.requestId().toString())
                .doesNotContain(blueId)
                .doesNotContain(blueKey);
        error(
                as(member)
                        .get("/admin/v1/usage/export?from=" + from + "&to=" + to + "&team_id=" + blue)
                        .then(),
                403,
                "forbidden");
        // the pool-wide overview is not a team view
        error(as(member).get("/admin/v1/overview").then(), 403, "forbidden");
    }

    @Test
    void aMemberRouteChecksItsTeamsKeysOnlyAndAnotherTeamsKeyIsAMissingOne() {
        String red = team();
        String blue = team();
        String[] redKey = createKey(Map.of("name", "red key", "team_id", red));
        String[] blueKey = createKey(Map.of("name", "blue key", "team_id", blue));
        String[] noTeamKey = createKey(Map.of("name", "no team"));
        String member = ApiTokenFixtures.create(AdminApiFixtures.TOKEN, unique("m"), Role.TEAM_MEMBER, red);

        as(member)
                .body(Map.of("access_key_id", redKey[0], "protocol", "openai_chat", "model", "m"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("admission.team_id", equalTo(red));
        as(member)
                .body(Map.of("access_key", redKey[1], "protocol", "openai_chat", "model", "m"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200)
                .body("admission.team_id", equalTo(red));

        // by id: another team's key and a key of no team answer as an id that does not exist
        String missingId = unique("no-such-key");
        Response missing = as(member)
                .body(Map.of("access_key_id", missingId, "protocol", "openai_chat", "model", "m"))
                .post("/admin/v1/route-check");
        error(missing.then(), 404, "not_found");
        for (String other : new String[] {blueKey[0], noTeamKey[0]}) {
            Response answer = as(member)
                    .body(Map.of("access_key_id", other, "protocol", "openai_chat", "model", "m"))
                    .post("/admin/v1/route-check");
            error(answer.then(), 404, "not_found");
            assertThat(withoutId(answer, other)).isEqualTo(withoutId(missing, missingId));
        }
        // by plaintext: another team's key answers as a key nobody has, and neither echoes the key
        Response unknownPlain = as(member)
                .body(Map.of("access_key", "rk-" + "x".repeat(32), "protocol", "openai_chat", "model", "m"))
                .post("/admin/v1/route-check");
        Response otherPlain = as(member)
                .body(Map.of("access_key", blueKey[1], "protocol", "openai_chat", "model", "m"))
                .post("/admin/v1/route-check");
        error(otherPlain.then(), 404, "not_found");
        assertThat(otherPlain.asString())
                .isEqualTo(unknownPlain.asString())
                .doesNotContain(blueKey[1])
                .doesNotContain(blueKey[0])
                .doesNotContain(blue);
        // an operator still checks any key
        admin().body(Map.of("access_key_id", blueKey[0], "protocol", "openai_chat", "model", "m"))
                .post("/admin/v1/route-check")
                .then()
                .statusCode(200);
    }

    @Test
    void aTeamAdminKeepsItsKeysLimitsWithinTheTeams() {
        String red = unique("team");
        admin().body(Map.of("id", red, "name", red, "limits", Map.of("rpm_limit", 100, "max_budget", 10)))
                .post("/admin/v1/teams")
                .then()
                .statusCode(201);
        String teamAdmin = ApiTokenFixtures.create(AdminApiFixtures.TOKEN, unique("ta"), Role.TEAM_ADMIN, red);

        error(
                        as(teamAdmin)
                                .body(Map.of("name", "greedy", "team_id", red, "limits", Map.of("rpm_limit", 101)))
                                .post("/admin/v1/access-keys")
                                .then(),
                        400,
                        "validation.limits")
                .body("error.message", org.hamcrest.Matchers.containsString("rpm_limit"));
        String key = as(teamAdmin)
                .body(Map.of(
                        "name",
                        "modest",
                        "team_id",
                        red,
                        "limits",
                        Map.of("rpm_limit", 100, "tpm_limit", 5000, "max_budget", 10)))
                .post("/admin/v1/access-keys")
                .then()
                .statusCode(201)
                .extract()
                .path("access_key.id");
        error(
                        as(teamAdmin)
                                .body(Map.of("limits", Map.of("rpm_limit", 50, "max_budget", 11)))
                                .patch("/admin/v1/access-keys/" + key)
                                .then(),
                        400,
                        "validation.limits")
                .body("error.message", org.hamcrest.Matchers.containsString("max_budget"));
        // refused: nothing changed
        admin().get("/admin/v1/access-keys/" + key)
                .then()
                .body("limits.rpm_limit", equalTo(100))
                .body("limits.max_budget", equalTo(10));
        as(teamAdmin)
                .body(Map.of("limits", Map.of("rpm_limit", 20)))
                .patch("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("limits.rpm_limit", equalTo(20));
        // the team's ceiling binds the team's roles; an operator decides for itself
        admin().body(Map.of("limits", Map.of("rpm_limit", 1000)))
                .patch("/admin/v1/access-keys/" + key)
                .then()
                .statusCode(200)
                .body("limits.rpm_limit", equalTo(1000));
    }
}
