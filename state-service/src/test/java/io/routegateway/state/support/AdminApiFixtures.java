package io.routegateway.state.support;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import io.routegateway.core.admin.ErrorBody;

import static io.restassured.RestAssured.given;

/** Calls the admin API as an operator would; every id is unique so test classes share one database. */
public final class AdminApiFixtures {

    /** {@code %test.state.admin.token}. */
    public static final String TOKEN = "local-test-admin-token";

    /** A failure policy with cooldown on for an hour: a failure keeps its model cooling for the whole test. */
    public static final Map<String, Object> COOLING_FOR_AN_HOUR =
            Map.of("failure_policy", Map.of("cooldown_enabled", true, "cooldown_seconds", 3600));

    private AdminApiFixtures() {}

    public static RequestSpecification admin() {
        return given().header("Authorization", "Bearer " + TOKEN).contentType(ContentType.JSON);
    }

    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Asserts the one error shape and returns the response for further checks. */
    public static ValidatableResponse error(ValidatableResponse response, int status, String code) {
        return response.statusCode(status)
                .contentType(ContentType.JSON)
                .body("error.code", org.hamcrest.Matchers.equalTo(code))
                .body("error.message", org.hamcrest.Matchers.not(org.hamcrest.Matchers.emptyOrNullString()))
                .body("error.type", org.hamcrest.Matchers.equalTo(ErrorBody.typeFor(status)));
    }

    public static String createGroup(Map<String, Object> fields) {
        return admin().body(fields)
                .post("/admin/v1/groups")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    public static String createGroup(String id, List<String> credentialIds, List<String> exposedModels) {
        return createGroup(Map.of(
                "id", id, "name", "group " + id, "credential_ids", credentialIds, "exposed_models", exposedModels));
    }

    /** An openai api credential mapping {@code gpt-5.6-sol → upstream-sol} and {@code glm-5.3 → upstream-glm}. */
    public static String createCredential(String id, String secret, Map<String, Object> extra) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of(
                "id",
                id,
                "name",
                "credential " + id,
                "platform",
                "openai",
                "kind",
                "api",
                "base_url",
                "https://relay.example.test/v1/",
                "secret",
                secret,
                "model_mappings",
                List.of(
                        Map.of("from", "gpt-5.6-sol", "to", "upstream-sol"),
                        Map.of("from", "glm-5.3", "to", "upstream-glm"))));
        body.putAll(extra);
        return admin().body(body)
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    /** Creates a key and returns {@code [id, plaintext]}. */
    public static String[] createKey(Map<String, Object> fields) {
        var response = admin().body(fields)
                .post("/admin/v1/access-keys")
                .then()
                .statusCode(201)
                .extract();
        return new String[] {response.path("access_key.id"), response.path("key")};
    }
}
