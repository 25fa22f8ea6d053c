package io.routegateway.state.identity;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.routegateway.core.identity.AdminAccess;
import io.routegateway.core.identity.AdminEndpoint;
import io.routegateway.core.identity.AdminEndpoints;
import io.routegateway.core.identity.Principal;
import io.routegateway.core.identity.Role;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint of {@link AdminEndpoints} × every role, against the running service, generated from
 * the table: a role the rule leaves out gets 403 {@code forbidden} before anything runs; a team role
 * asking for a resource outside its team (here: an id that does not exist) gets 404; every other
 * call passes the guard (its answer is the resource's own: 200, 400 for the deliberately invalid
 * body, 404 for the absent id — never 401 or 403). Calls use an absent id and an invalid body, so
 * none changes anything.
 */
@QuarkusTest
class AccessMatrixTests {

    static final String TEAM = "matrix-red";
    private static final String ABSENT = "matrix-absent";
    private static Map<Role, String> tokens;

    static Map<Role, String> tokens() {
        if (tokens == null) {
            if (admin().get("/admin/v1/teams/" + TEAM).statusCode() == 404) {
                admin().body(Map.of("id", TEAM, "name", "matrix team"))
                        .post("/admin/v1/teams")
                        .then()
                        .statusCode(201);
            }
            Map<Role, String> created = new EnumMap<>(Role.class);
            for (Role role : Role.values()) {
                created.put(
                        role,
                        ApiTokenFixtures.create(
                                AdminApiFixtures.TOKEN,
                                "matrix " + role.wire(),
                                role,
                                role.teamScoped() ? TEAM : null));
            }
            tokens = created;
        }
        return tokens;
    }

    static Stream<Arguments> cells() {
        return AdminEndpoints.all().stream()
                .flatMap(endpoint -> Stream.of(Role.values()).map(role -> Arguments.of(endpoint.key(), role)));
    }

    static AdminAccess.Decision expected(AdminEndpoint endpoint, Role role) {
        Principal principal = new Principal("m", Principal.Via.API_TOKEN, role, role.teamScoped() ? TEAM : null, "t");
        return AdminAccess.decide(principal, endpoint, null);
    }

    @ParameterizedTest(name = "{0} as {1}")
    @MethodSource("cells")
    void everyEndpointTimesEveryRole(String key, Role role) {
        AdminEndpoint endpoint = AdminEndpoints.byKey(key);
        // every other path parameter ({id}, {request_id}, …) names something that does not exist
        String path = endpoint.template().replace("{modelKey}", "m").replaceAll("\\{[^}/]+}", ABSENT);
        var request =
                given().header("Authorization", "Bearer " + tokens().get(role)).contentType(ContentType.JSON);
        if (!endpoint.method().equals("GET") && !endpoint.method().equals("DELETE")) {
            request = request.body("{\"name\":5}");
        }
        Response response = request.request(endpoint.method(), path);
        switch (expected(endpoint, role)) {
            case FORBIDDEN -> {
                assertThat(response.statusCode()).as(key + " as " + role).isEqualTo(403);
                assertThat(response.jsonPath().getString("error.code")).isEqualTo("forbidden");
            }
            case NOT_FOUND -> {
                assertThat(response.statusCode()).as(key + " as " + role).isEqualTo(404);
                assertThat(response.jsonPath().getString("error.code")).isEqualTo("not_found");
            }
            case ALLOW ->
                assertThat(response.statusCode())
                        .as(key + " as " + role + ": " + response.asString())
                        .isNotIn(401, 403)
                        .isLessThan(500);
        }
    }

    /** "team": its own team's only; "≤ own": tokens within the caller's own rights. */
    private static String label(AdminEndpoint endpoint, Role role) {
        if (endpoint.scope() != AdminEndpoint.TeamScope.IN_RESOURCE || role == Role.ADMIN) {
            return "yes";
        }
        if (endpoint.resourceType().equals("api-tokens")) {
            return "≤ own";
        }
        return role.teamScoped() ? "team" : "yes";
    }

    /** The matrix as a table (target/access-matrix.md), for the docs. */
    @Test
    void theMatrixIsWritten() throws Exception {
        StringBuilder out = new StringBuilder("| endpoint |");
        for (Role role : Role.values()) {
            out.append(' ').append(role.wire()).append(" |");
        }
        out.append("\n|---|").append("---|".repeat(Role.values().length)).append('\n');
        for (AdminEndpoint endpoint : AdminEndpoints.all()) {
            out.append("| `").append(endpoint.key()).append("` |");
            for (Role role : Role.values()) {
                out.append(' ')
                        .append(
                                switch (expected(endpoint, role)) {
                                    case ALLOW -> label(endpoint, role);
                                    case NOT_FOUND -> "team";
                                    case FORBIDDEN -> "403";
                                })
                        .append(" |");
            }
            out.append('\n');
        }
        Path file = Path.of("target", "access-matrix.md");
        Files.writeString(file, out);
        assertThat(Files.readAllLines(file)).hasSize(AdminEndpoints.all().size() + 2);
        assertThat(List.of(Role.values())).hasSize(5);
    }
}
