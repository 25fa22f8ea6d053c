package io.routegateway.state.identity;

import java.util.HashMap;
import java.util.Map;

import io.restassured.http.ContentType;
import io.routegateway.core.identity.Role;

import static io.restassured.RestAssured.given;

/** Creates API tokens through the API, as an operator would. */
final class ApiTokenFixtures {

    private ApiTokenFixtures() {}

    /** A token of {@code role} (and {@code team}) created by the holder of {@code creatorToken}; returns the token. */
    static String create(String creatorToken, String name, Role role, String team) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("role", role.wire());
        if (team != null) {
            body.put("team_id", team);
        }
        return given().header("Authorization", "Bearer " + creatorToken)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/v1/api-tokens")
                .then()
                .statusCode(201)
                .extract()
                .path("token");
    }

    static io.restassured.specification.RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON);
    }
}
