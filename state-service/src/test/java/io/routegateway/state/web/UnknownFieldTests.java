package io.routegateway.state.web;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * An unknown or misspelt field is refused with {@code validation.unknown_field} on every endpoint
 * that takes a body, never silently dropped: the endpoints are read from the served OpenAPI
 * document, so a new one is covered the day it is added.
 */
@QuarkusTest
class UnknownFieldTests {

    /** Every (method, path) whose operation declares a JSON request body. */
    private static List<String[]> bodyOperations() throws IOException {
        JsonNode document = Json.MAPPER.readTree(given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        List<String[]> operations = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : List.of("post", "put", "patch")) {
                JsonNode operation = path.getValue().path(method);
                if (!operation
                        .path("requestBody")
                        .path("content")
                        .path("application/json")
                        .isMissingNode()) {
                    operations.add(new String[] {method, path.getKey()});
                }
            }
        }
        return operations;
    }

    private static ValidatableResponse send(String method, String path, Object body, String credentialId) {
        // a real credential for the OAuth bodies (an unknown id would be a 404 before the body is read)
        String concrete = path.replace("{id}", credentialId).replaceAll("\\{[^}]+}", "no-such-thing");
        return admin().body(body).request(method, concrete).then();
    }

    @Test
    void everyBodyTheDocumentListsRefusesAFieldItDoesNotTake() throws IOException {
        String credentialId = createCredential(unique("cred-unknown"), "sk-unknown-field-000000", Map.of());
        List<String[]> operations = bodyOperations();
        assertThat(operations)
                .as("the document lists the writes")
                .extracting(operation -> operation[0] + " " + operation[1])
                .contains(
                        "post /admin/v1/credentials",
                        "patch /admin/v1/credentials/{id}",
                        "post /admin/v1/groups",
                        "post /admin/v1/access-keys",
                        "post /admin/v1/teams",
                        "patch /admin/v1/settings",
                        "post /admin/v1/route-check");
        for (String[] operation : operations) {
            error(send(operation[0], operation[1], Map.of("wieght", 3), credentialId), 400, "validation.unknown_field")
                    .body("error.message", containsString("wieght"));
        }
    }

    @Test
    void aHostileFieldNameIsRefusedWithoutBeingEchoed() throws IOException {
        String credentialId = createCredential(unique("cred-unknown"), "sk-unknown-field-000001", Map.of());
        String hostile = "<script>alert(1)</script>\u0000" + "x".repeat(10_000);
        for (String[] operation : bodyOperations()) {
            error(send(operation[0], operation[1], Map.of(hostile, 1), credentialId), 400, "validation.unknown_field")
                    .body("error.message", not(containsString("<script>")))
                    .body("error.message", not(containsString("xxxxxxxxxx")))
                    .body("error.message", not(containsString("\u0000")));
        }
    }

    @Test
    void aNestedUnknownFieldIsRefusedNamingWhereAndNothingIsStored() {
        String name = unique("cred-nested");
        error(
                        admin().body(Map.of(
                                        "name",
                                        name,
                                        "platform",
                                        "openai",
                                        "base_url",
                                        "https://relay.example.com",
                                        "secret",
                                        "sk-nested-unknown-000000",
                                        "model_mappings",
                                        List.of(Map.of("from", "gpt-5.6-sol", "tto", "upstream-sol"))))
                                .post("/admin/v1/credentials")
                                .then(),
                        400,
                        "validation.unknown_field")
                .body("error.message", containsString("model_mappings[0].tto"));
        assertThat(admin().get("/admin/v1/credentials")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .as("nothing is stored")
                .doesNotContain(name);
    }

    @Test
    void aMisspeltFailurePolicyFieldIsRefusedNotSavedWithCooldownOff() {
        String id = createCredential(unique("cred-policy"), "sk-policy-unknown-000000", Map.of());
        String before = admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        error(
                        admin().body(Map.of("failure_policy", Map.of("cooldown_second", 60)))
                                .patch("/admin/v1/credentials/" + id)
                                .then(),
                        400,
                        "validation.unknown_field")
                .body("error.message", containsString("cooldown_second"));
        assertThat(Json.MAPPER
                        .valueToTree(admin().get("/admin/v1/credentials/" + id)
                                .then()
                                .statusCode(200)
                                .extract()
                                .as(Map.class))
                        .path("failure_policy")
                        .toString())
                .as("the policy is unchanged")
                .isEqualTo(Json.MAPPER
                        .valueToTree(
                                io.restassured.path.json.JsonPath.from(before).getMap("failure_policy"))
                        .toString());
    }
}
