package io.routegateway.state.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.AdminApiFixtures.COOLING_FOR_AN_HOUR;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.createGroup;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document describes the wire as it really is (snake_case, the same names Jackson
 * writes and reads), and the console's checked-in copy of it ({@code console/openapi/admin-api.json},
 * from which the console's API types are generated) is the document this build serves.
 */
@QuarkusTest
class OpenApiWireTests {

    /** Refresh the console's copy: {@code -Dopenapi.update=true}. */
    private static final Path CONSOLE_COPY = Path.of("..", "console", "openapi", "admin-api.json");

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void responseSchemasNameExactlyThePropertiesOfRealResponses() throws IOException {
        JsonNode schemas = document().path("components").path("schemas");
        String credentialId = createCredential(unique("oas"), "sk-oas-secret", COOLING_FOR_AN_HOUR);
        String groupId = createGroup(unique("oas-grp"), List.of(credentialId), List.of("gpt-5.6-sol"));
        String[] key = createKey(Map.of("name", "oas key", "group_ids", List.of(groupId)));

        JsonNode credential = get("/admin/v1/credentials/" + credentialId);
        assertSameProperties(schemas, "CredentialView", credential);
        assertSameProperties(schemas, "AccountState", credential.path("account"));
        assertSameProperties(schemas, "FailurePolicy", credential.path("failure_policy"));
        assertSameProperties(
                schemas, "ModelMapping", credential.path("model_mappings").get(0));
        assertSameProperties(schemas, "GroupView", get("/admin/v1/groups/" + groupId));
        assertSameProperties(schemas, "AccessKeyView", get("/admin/v1/access-keys/" + key[0]));
        assertSameProperties(
                schemas,
                "ModelView",
                get("/admin/v1/credentials/" + credentialId + "/models").get(0));
        JsonNode health = get("/admin/v1/health");
        assertSameProperties(schemas, "PoolHealthView", health);
        assertSameProperties(
                schemas, "CredentialHealthView", health.path("items").get(0));
        assertSameProperties(schemas, "SettingsView", get("/admin/v1/settings"));
        JsonNode check = MAPPER.readTree(
                admin().body(Map.of("access_key", key[1], "protocol", "openai_chat", "model", "gpt-5.6-sol"))
                        .post("/admin/v1/route-check")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
        assertSameProperties(schemas, "RouteCheckView", check);
        assertSameProperties(schemas, "Selected", check.path("selected"));
        assertSameProperties(schemas, "AdmissionCheck", check.path("admission"));

        String teamId = admin().body(
                        Map.of("name", "oas team", "limits", Map.of("max_budget", 5, "budget_duration", "1d")))
                .post("/admin/v1/teams")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        JsonNode team = get("/admin/v1/teams/" + teamId);
        assertSameProperties(schemas, "TeamView", team);
        assertSameProperties(schemas, "Limits", team.path("limits"));
        assertSameProperties(schemas, "CredentialLimits", credential.path("limits"));
        assertSameProperties(schemas, "SpendView", get("/admin/v1/teams/" + teamId + "/spend"));
        String[] budgeted =
                createKey(Map.of("name", "oas budget", "team_id", teamId, "limits", Map.of("max_budget", 1)));
        JsonNode budgetedCheck = MAPPER.readTree(
                admin().body(Map.of("access_key", budgeted[1], "protocol", "openai_chat", "model", "gpt-5.6-sol"))
                        .post("/admin/v1/route-check")
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
        assertSameProperties(
                schemas,
                "BudgetCheck",
                budgetedCheck.path("admission").path("budgets").get(0));
    }

    @Test
    void freeFormJsonFieldsAreNotDescribedAsJacksonsNodeClass() throws IOException {
        JsonNode schemas = document().path("components").path("schemas");
        assertThat(schemas.toString()).doesNotContain("node_type", "container_node", "value_node");
        assertThat(schemas.path("CredentialView")
                        .path("properties")
                        .path("recovery")
                        .path("properties")
                        .isMissingNode())
                .isTrue();
    }

    @Test
    void aCredentialBodyWrittenWithTheInputSchemasNamesIsAcceptedAsSent() throws IOException {
        JsonNode input = document().path("components").path("schemas").path("CredentialInput");
        Set<String> names = new TreeSet<>();
        input.path("properties").fieldNames().forEachRemaining(names::add);
        assertThat(names).contains("base_url", "model_mappings", "failure_policy", "group_ids", "weight_mode");
        assertThat(names).allMatch(name -> name.equals(name.toLowerCase()), "snake_case");

        String id = unique("oas-in");
        admin().body(Map.of(
                        "id", id,
                        "name", "from the schema",
                        "platform", "openai",
                        "kind", "api",
                        "base_url", "https://relay.example.test/v1",
                        "secret", "sk-from-schema",
                        "model_mappings", List.of(Map.of("from", "a", "to", "b")),
                        "weight_mode", "manual",
                        "weight", 7,
                        "in_pool", false))
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201);
        JsonNode stored = get("/admin/v1/credentials/" + id);
        assertThat(stored.path("base_url").asText()).isEqualTo("https://relay.example.test/v1");
        assertThat(stored.path("model_mappings").get(0).path("to").asText()).isEqualTo("b");
        assertThat(stored.path("weight_mode").asText()).isEqualTo("manual");
        assertThat(stored.path("weight").asInt()).isEqualTo(7);
        assertThat(stored.path("in_pool").asBoolean()).isFalse();
    }

    @Test
    void theConsolesCopyOfTheDocumentIsTheServedDocument() throws IOException {
        JsonNode served = document();
        if (Boolean.getBoolean("openapi.update")) {
            Files.writeString(CONSOLE_COPY, MAPPER.writeValueAsString(served) + "\n", StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(CONSOLE_COPY)).as("%s exists", CONSOLE_COPY).isTrue();
        JsonNode copy = MAPPER.readTree(Files.readString(CONSOLE_COPY, StandardCharsets.UTF_8));
        assertThat(copy)
                .as("console/openapi/admin-api.json is stale: refresh it with"
                        + " ./mvnw -pl state-service -am verify -Dtest=OpenApiWireTests -Dopenapi.update=true"
                        + " -Dsurefire.failIfNoSpecifiedTests=false")
                .isEqualTo(served);
    }

    private static JsonNode document() throws IOException {
        return MAPPER.readTree(given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    private static JsonNode get(String path) throws IOException {
        return MAPPER.readTree(
                admin().get(path).then().statusCode(200).extract().asString());
    }

    private static void assertSameProperties(JsonNode schemas, String schemaName, JsonNode actual) {
        JsonNode schema = schemas.path(schemaName);
        assertThat(schema.isMissingNode())
                .as("schema %s in %s", schemaName, names(schemas))
                .isFalse();
        Set<String> described = new TreeSet<>();
        schema.path("properties").fieldNames().forEachRemaining(described::add);
        Set<String> sent = new TreeSet<>();
        actual.fieldNames().forEachRemaining(sent::add);
        assertThat(sent).as("a real %s response has properties", schemaName).isNotEmpty();
        assertThat(described).as("properties of schema %s", schemaName).isEqualTo(sent);
    }

    private static List<String> names(JsonNode schemas) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = schemas.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
