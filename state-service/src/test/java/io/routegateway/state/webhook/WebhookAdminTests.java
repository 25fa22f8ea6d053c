package io.routegateway.state.webhook;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

/** {@code /admin/v1/webhooks}: CRUD, a write-only secret, strict bodies, hostile input and internal targets. */
@QuarkusTest
class WebhookAdminTests {

    static final String SECRET = "whsec-0123456789abcdef";
    static final String URL = "https://hooks.example.com/route";

    static Map<String, Object> valid() {
        Map<String, Object> body = new HashMap<>();
        body.put("url", URL);
        body.put("event_types", List.of("credential.revoked", "team.budget_threshold"));
        body.put("secret", SECRET);
        return body;
    }

    static Map<String, Object> with(String field, Object value) {
        Map<String, Object> body = valid();
        body.put(field, value);
        return body;
    }

    @Test
    void anEndpointIsCreatedReadUpdatedAndDeletedAndItsSecretIsNeverReturned() {
        String id = unique("webhook");
        Map<String, Object> body = with("id", id);
        body.put("format", "slack");
        String created = admin().body(body)
                .post("/admin/v1/webhooks")
                .then()
                .statusCode(201)
                .body("id", equalTo(id))
                .body("url", equalTo(URL))
                .body("event_types", equalTo(List.of("credential.revoked", "team.budget_threshold")))
                .body("format", equalTo("slack"))
                .body("enabled", equalTo(true))
                .body("secret_set", equalTo(true))
                .body("secret", nullValue())
                .extract()
                .asString();
        assertThat(created).doesNotContain(SECRET);
        admin().get("/admin/v1/webhooks/" + id).then().statusCode(200).body("url", equalTo(URL));
        admin().get("/admin/v1/webhooks").then().statusCode(200).body("items.id", hasItem(id));
        String updated = admin().body(Map.of("enabled", false, "secret", "whsec-rotated-0123456789"))
                .patch("/admin/v1/webhooks/" + id)
                .then()
                .statusCode(200)
                .body("enabled", equalTo(false))
                .body("format", equalTo("slack"))
                .extract()
                .asString();
        assertThat(updated).doesNotContain("whsec-rotated");
        admin().get("/admin/v1/webhooks/" + id + "/deliveries")
                .then()
                .statusCode(200)
                .body("items", equalTo(List.of()));
        admin().delete("/admin/v1/webhooks/" + id).then().statusCode(204);
        error(admin().get("/admin/v1/webhooks/" + id).then(), 404, "not_found");
        error(admin().body(Map.of("id", id)).post("/admin/v1/webhooks").then(), 400, "validation.webhook_url");
        error(admin().delete("/admin/v1/webhooks/" + id).then(), 404, "not_found");
    }

    @Test
    void aSecondEndpointWithTheSameIdConflicts() {
        String id = unique("webhook");
        admin().body(with("id", id)).post("/admin/v1/webhooks").then().statusCode(201);
        error(admin().body(with("id", id)).post("/admin/v1/webhooks").then(), 409, "conflict");
        admin().delete("/admin/v1/webhooks/" + id).then().statusCode(204);
    }

    @Test
    void unknownMisspeltAndWronglyTypedFieldsAreRefused() {
        error(admin().body(with("secrt", "x")).post("/admin/v1/webhooks").then(), 400, "validation.unknown_field");
        error(admin().body(with("enabled", "true")).post("/admin/v1/webhooks").then(), 400, "validation.field_type");
        error(admin().body(with("url", 5)).post("/admin/v1/webhooks").then(), 400, "validation.field_type");
        error(
                admin().body(with("event_types", "credential.revoked"))
                        .post("/admin/v1/webhooks")
                        .then(),
                400,
                "validation.field_type");
        error(
                admin().body(with("event_types", List.of()))
                        .post("/admin/v1/webhooks")
                        .then(),
                400,
                "validation.event_types");
        error(
                admin().body(with("event_types", List.of("credential.revokd")))
                        .post("/admin/v1/webhooks")
                        .then(),
                400,
                "validation.event_types");
        error(admin().body(with("format", "xml")).post("/admin/v1/webhooks").then(), 400, "validation.format");
        error(admin().body(with("secret", "short")).post("/admin/v1/webhooks").then(), 400, "validation.secret");
        error(
                admin().body(with("secret", "a".repeat(100_000)))
                        .post("/admin/v1/webhooks")
                        .then(),
                400,
                "validation.secret");
        error(
                admin().body(with("secret", "whsec-0123456789\u0000abcdef"))
                        .post("/admin/v1/webhooks")
                        .then(),
                400,
                "validation.secret");
        error(admin().body(with("enabled", null)).post("/admin/v1/webhooks").then(), 400, "validation.field_type");
        error(admin().body("[1]").post("/admin/v1/webhooks").then(), 400, "validation.malformed_json");
        error(admin().body(with("id", "../etc")).post("/admin/v1/webhooks").then(), 400, "validation.id");
    }

    @Test
    void badUrlsAndInternalTargetsAreRefusedWithoutEchoingThem() {
        for (String url : List.of(
                "ftp://hooks.example.com/",
                "hooks.example.com/x",
                "https://user:pw@hooks.example.com/",
                "https://hooks.example.com/\u0000",
                "https://hooks.example.com/<script>alert(1)</script>",
                "https://hooks.example.com/" + "a".repeat(100_000),
                "http://169.254.169.254/latest/meta-data/",
                "http://metadata.google.internal/",
                "http://localhost:8080/",
                "http://127.0.0.2:8080/",
                "http://10.0.0.1/",
                "http://192.168.0.10/",
                "http://[::1]/",
                "http://[fd00:ec2::254]/",
                "http://2130706433/")) {
            String answer = error(
                            admin().body(with("url", url))
                                    .post("/admin/v1/webhooks")
                                    .then(),
                            400,
                            "validation.webhook_url")
                    .extract()
                    .asString();
            assertThat(answer)
                    .as(url)
                    .doesNotContain("<script>")
                    .doesNotContain("aaaaaaaaaa")
                    .doesNotContain("\u0000");
        }
        // the tests' operator allow-lists 127.0.0.1 (state.webhook.allowed-targets): that one is accepted
        String id = admin().body(with("url", "http://127.0.0.1:9/x"))
                .post("/admin/v1/webhooks")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        error(
                admin().body(Map.of("url", "http://169.254.169.254/"))
                        .patch("/admin/v1/webhooks/" + id)
                        .then(),
                400,
                "validation.webhook_url");
        error(
                admin().body(Map.of("id", "other"))
                        .patch("/admin/v1/webhooks/" + id)
                        .then(),
                400,
                "validation.id");
        admin().delete("/admin/v1/webhooks/" + id).then().statusCode(204);
    }

    @Test
    void theDeliveryLogRefusesABadCursorAndAnUnknownEndpoint() {
        error(
                admin().get("/admin/v1/webhooks/nope-" + unique("x") + "/deliveries")
                        .then(),
                404,
                "not_found");
        String id = admin().body(valid())
                .post("/admin/v1/webhooks")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        error(
                admin().queryParam("cursor", "garbage\u0000")
                        .get("/admin/v1/webhooks/" + id + "/deliveries")
                        .then(),
                400,
                "validation.query");
        error(
                admin().queryParam("limit", "x")
                        .get("/admin/v1/webhooks/" + id + "/deliveries")
                        .then(),
                400,
                "validation.query");
        admin().delete("/admin/v1/webhooks/" + id).then().statusCode(204);
        assertThat(id).matches("webhook-[a-z0-9]{12}");
    }
}
