package io.routegateway.state.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.state.repository.OutboxEntity;
import io.routegateway.state.support.AdminApiFixtures;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import io.routegateway.testsupport.Management;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hostile admin input through the real API: U+0000 and unpaired surrogates in every body field,
 * path id and query filter, 1 MB fields, wrong JSON types and huge arrays are each a 400 with the
 * field's code (never a 5xx) and store nothing; the largest accepted credential is published; a
 * snapshot that can never be published is marked failed and does not hold up the rows behind it.
 */
@QuarkusTest
class HostileInputTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String NUL = "\u0000";
    private static final String MEGABYTE = "x".repeat(1 << 20);

    @Inject
    SecretBox secretBox;

    @Inject
    MeterRegistry registry;

    /** One refused write: where it goes, the body, the code it must answer. */
    private record Refusal(String method, String path, Object body, String code) {}

    @Test
    void unstorableCharactersInEveryBodyFieldAreRefusedWithTheFieldsCode() {
        String credential = createCredential(unique("cred-hostile"), "sk-hostile-0", Map.of());
        List<Refusal> refusals = new ArrayList<>();
        for (String bad : List.of(NUL, "\uD800")) {
            refusals.add(new Refusal("POST", "/credentials", credentialWith("name", "n" + bad), "validation.name"));
            refusals.add(new Refusal("POST", "/credentials", credentialWith("id", "c" + bad), "validation.id"));
            refusals.add(new Refusal(
                    "POST",
                    "/credentials",
                    credentialWith("base_url", "https://r" + bad + ".test"),
                    "validation.base_url"));
            refusals.add(
                    new Refusal("POST", "/credentials", credentialWith("secret", "sk" + bad), "validation.secret"));
            refusals.add(new Refusal(
                    "POST", "/credentials", credentialWith("platform", "openai" + bad), "validation.platform"));
            refusals.add(new Refusal("POST", "/credentials", credentialWith("kind", "api" + bad), "validation.kind"));
            refusals.add(new Refusal(
                    "POST", "/credentials", credentialWith("weight_mode", "auto" + bad), "validation.weight_mode"));
            refusals.add(new Refusal(
                    "POST",
                    "/credentials",
                    credentialWith("model_mappings", List.of(Map.of("from", "m" + bad, "to", "u"))),
                    "validation.model_mappings"));
            refusals.add(new Refusal(
                    "POST",
                    "/credentials",
                    credentialWith("model_mappings", List.of(Map.of("from", "m", "to", "u" + bad))),
                    "validation.model_mappings"));
            refusals.add(new Refusal(
                    "POST", "/credentials", credentialWith("group_ids", List.of("g" + bad)), "validation.group_ids"));
            refusals.add(new Refusal(
                    "POST",
                    "/credentials",
                    credentialWith("recovery", Map.of("mode", "scheduled", "times", List.of("03:00" + bad))),
                    "validation.recovery_times"));
            refusals.add(new Refusal(
                    "POST",
                    "/credentials",
                    credentialWith(
                            "recovery",
                            Map.of("mode", "scheduled", "times", List.of("03:00"), "time_zone", "UTC" + bad)),
                    "validation.recovery_time_zone"));
            refusals.add(
                    new Refusal("PATCH", "/credentials/" + credential, Map.of("name", "n" + bad), "validation.name"));
            refusals.add(new Refusal(
                    "PATCH", "/credentials/" + credential, Map.of("secret", "sk" + bad), "validation.secret"));
            refusals.add(new Refusal(
                    "POST", "/credentials/" + credential + "/test", Map.of("model", "m" + bad), "validation.models"));
            refusals.add(new Refusal("POST", "/groups", Map.of("name", "g" + bad), "validation.name"));
            refusals.add(new Refusal("POST", "/groups", Map.of("name", "g", "id", "g" + bad), "validation.id"));
            refusals.add(new Refusal(
                    "POST", "/groups", Map.of("name", "g", "exposed_models", List.of("m" + bad)), "validation.models"));
            refusals.add(new Refusal(
                    "POST",
                    "/groups",
                    Map.of("name", "g", "credential_ids", List.of("c" + bad)),
                    "validation.credential_ids"));
            refusals.add(new Refusal("POST", "/access-keys", Map.of("name", "k" + bad), "validation.name"));
            refusals.add(new Refusal(
                    "POST",
                    "/access-keys",
                    Map.of("name", "k", "allowed_models", List.of("m" + bad)),
                    "validation.models"));
            refusals.add(new Refusal(
                    "POST",
                    "/access-keys",
                    Map.of("name", "k", "allowed_protocols", List.of("openai_chat" + bad)),
                    "validation.protocol"));
            refusals.add(new Refusal(
                    "POST",
                    "/access-keys",
                    Map.of("name", "k", "group_ids", List.of("g" + bad)),
                    "validation.group_ids"));
            refusals.add(new Refusal(
                    "POST",
                    "/access-keys",
                    Map.of("name", "k", "expires_at", "2030-01-01T00:00:00Z" + bad),
                    "validation.field_type"));
            refusals.add(new Refusal(
                    "PATCH",
                    "/settings",
                    Map.of("model_prices", Map.of("m" + bad, Map.of("input_per_million", 1, "output_per_million", 1))),
                    "validation.model_prices|validation.malformed_json"));
            refusals.add(new Refusal(
                    "PATCH",
                    "/settings",
                    Map.of("setting" + bad, 1),
                    "validation.unknown_field|validation.malformed_json"));
            refusals.add(new Refusal(
                    "POST",
                    "/route-check",
                    Map.of("access_key_id", "k" + bad, "protocol", "openai_chat"),
                    "validation.access_key"));
            refusals.add(new Refusal(
                    "POST",
                    "/route-check",
                    Map.of("access_key", "rk-x", "protocol", "openai_chat" + bad),
                    "validation.protocol"));
            refusals.add(new Refusal(
                    "POST",
                    "/route-check",
                    Map.of(
                            "access_key",
                            "rk-x",
                            "protocol",
                            "openai_chat",
                            "excluded_credential_ids",
                            List.of("c" + bad)),
                    "validation.credential_ids"));
        }
        assertRefused(refusals);
        // nothing was stored: the credential kept its name, no stray rows
        assertThat(admin().get("/admin/v1/credentials/" + credential)
                        .then()
                        .statusCode(200)
                        .extract()
                        .<String>path("name"))
                .isEqualTo("credential " + credential);
    }

    @Test
    void unstorableCharactersInPathIdsAndQueryFiltersAreRefused() {
        String credential = createCredential(unique("cred-hostile"), "sk-hostile-1", Map.of());
        List<String[]> calls = List.of(
                new String[] {"GET", "/admin/v1/credentials/c%00x", "validation.id"},
                new String[] {"PATCH", "/admin/v1/credentials/c%00x", "validation.id"},
                new String[] {"DELETE", "/admin/v1/credentials/c%00x", "validation.id"},
                new String[] {"POST", "/admin/v1/credentials/c%00x/pause", "validation.id"},
                new String[] {"POST", "/admin/v1/credentials/c%00x/test", "validation.id"},
                new String[] {"GET", "/admin/v1/credentials/c%00x/timeline", "validation.id"},
                new String[] {"GET", "/admin/v1/credentials/c%00x/models", "validation.id"},
                new String[] {"GET", "/admin/v1/credentials/" + "c".repeat(Inputs.MAX_ID + 1), "validation.id"},
                new String[] {
                    "POST", "/admin/v1/credentials/" + credential + "/models/m%00x/pause", "validation.model_key"
                },
                new String[] {
                    "POST",
                    "/admin/v1/credentials/" + credential + "/models/" + "m".repeat(Inputs.MAX_MODEL + 1) + "/clear",
                    "validation.model_key"
                },
                new String[] {"GET", "/admin/v1/groups/g%00x", "validation.id"},
                new String[] {"PATCH", "/admin/v1/groups/g%00x", "validation.id"},
                new String[] {"DELETE", "/admin/v1/groups/g%00x", "validation.id"},
                new String[] {"GET", "/admin/v1/access-keys/k%00x", "validation.id"},
                new String[] {"PATCH", "/admin/v1/access-keys/k%00x", "validation.id"},
                new String[] {"DELETE", "/admin/v1/access-keys/k%00x", "validation.id"},
                new String[] {"GET", "/admin/v1/requests?model=m%00x", "validation.query"},
                new String[] {"GET", "/admin/v1/requests?access_key_id=k%00x", "validation.query"},
                new String[] {"GET", "/admin/v1/requests?credential_id=c%00x", "validation.query"},
                new String[] {"GET", "/admin/v1/requests?group_id=g%00x", "validation.query"},
                new String[] {"GET", "/admin/v1/requests?reason_code=r%00x", "validation.query"},
                new String[] {
                    "GET", "/admin/v1/requests?model=" + "m".repeat(Inputs.MAX_QUERY_VALUE + 1), "validation.query"
                },
                new String[] {"GET", "/admin/v1/usage?group_by=model%00", "validation.query"},
                new String[] {"GET", "/admin/v1/usage?model=m%00x", "validation.query"},
                new String[] {"GET", "/admin/v1/credentials?archived=%00", "validation.query"},
                new String[] {"GET", "/admin/v1/credentials/" + credential + "/timeline?cursor=%00", "validation.query"
                });
        List<String> wrong = new ArrayList<>();
        for (String[] call : calls) {
            Response response = admin().urlEncodingEnabled(false)
                    .body(call[0].equals("PATCH") ? "{\"name\":\"x\"}" : "{}")
                    .request(call[0], call[1]);
            if (response.statusCode() != 400 || !call[2].equals(response.path("error.code"))) {
                wrong.add(call[0] + " " + call[1].substring(0, Math.min(80, call[1].length())) + " -> "
                        + response.statusCode() + " "
                        + response.asString()
                                .substring(0, Math.min(200, response.asString().length())));
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void hugeFieldsWrongTypesAndHugeArraysAreRefused() {
        String credential = createCredential(unique("cred-hostile"), "sk-hostile-2", Map.of());
        List<Refusal> refusals = new ArrayList<>();
        refusals.add(new Refusal("POST", "/credentials", credentialWith("secret", MEGABYTE), "validation.secret"));
        refusals.add(new Refusal(
                "POST",
                "/credentials",
                credentialWith("base_url", "https://relay.example.test/" + MEGABYTE),
                "validation.base_url"));
        refusals.add(new Refusal("POST", "/credentials", credentialWith("name", MEGABYTE), "validation.name"));
        refusals.add(new Refusal(
                "POST",
                "/credentials",
                credentialWith("model_mappings", List.of(Map.of("from", MEGABYTE, "to", "u"))),
                "validation.model_mappings"));
        refusals.add(new Refusal(
                "POST",
                "/credentials",
                credentialWith("model_mappings", List.of(Map.of("from", "m", "to", MEGABYTE))),
                "validation.model_mappings"));
        refusals.add(
                new Refusal("PATCH", "/credentials/" + credential, Map.of("secret", MEGABYTE), "validation.secret"));
        refusals.add(new Refusal(
                "PATCH",
                "/credentials/" + credential,
                Map.of("base_url", "https://relay.example.test/" + MEGABYTE),
                "validation.base_url"));
        refusals.add(new Refusal(
                "POST", "/groups", Map.of("name", "g", "exposed_models", List.of(MEGABYTE)), "validation.models"));
        refusals.add(new Refusal(
                "POST", "/access-keys", Map.of("name", "k", "allowed_models", List.of(MEGABYTE)), "validation.models"));
        refusals.add(new Refusal(
                "POST",
                "/access-keys",
                Map.of("name", "k", "allowed_protocols", List.of(MEGABYTE)),
                "validation.protocol"));
        refusals.add(new Refusal(
                "PATCH",
                "/settings",
                Map.of("model_prices", Map.of(MEGABYTE, Map.of("input_per_million", 1, "output_per_million", 1))),
                "validation.model_prices|validation.malformed_json"));
        refusals.add(new Refusal(
                "PATCH",
                "/settings",
                Map.of("model_prices", Map.of("m", Map.of("input_per_million", 1e300, "output_per_million", 1))),
                "validation.model_prices|validation.malformed_json"));
        // huge arrays
        List<Map<String, String>> mappings = new ArrayList<>();
        for (int i = 0; i <= Inputs.MAX_MAPPINGS; i++) {
            mappings.add(Map.of("from", "m" + i, "to", "u" + i));
        }
        refusals.add(new Refusal(
                "POST", "/credentials", credentialWith("model_mappings", mappings), "validation.model_mappings"));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i <= Inputs.MAX_CREDENTIAL_IDS; i++) {
            ids.add("id-" + i);
        }
        refusals.add(new Refusal(
                "POST",
                "/credentials",
                credentialWith("group_ids", ids.subList(0, Inputs.MAX_GROUP_IDS + 1)),
                "validation.group_ids"));
        refusals.add(new Refusal(
                "POST",
                "/access-keys",
                Map.of("name", "k", "group_ids", ids.subList(0, Inputs.MAX_GROUP_IDS + 1)),
                "validation.group_ids"));
        refusals.add(new Refusal(
                "POST", "/groups", Map.of("name", "g", "credential_ids", ids), "validation.credential_ids"));
        refusals.add(new Refusal(
                "POST",
                "/groups",
                Map.of("name", "g", "exposed_models", ids.subList(0, Inputs.MAX_MODELS + 1)),
                "validation.models"));
        refusals.add(new Refusal(
                "POST",
                "/access-keys",
                Map.of("name", "k", "allowed_protocols", java.util.Collections.nCopies(1000, "openai_chat")),
                "validation.protocol"));
        // wrong JSON types
        for (String field : List.of(
                "{\"name\":5}",
                "{\"name\":[\"a\"]}",
                "{\"enabled\":\"true\"}",
                "{\"enabled\":1}",
                "{\"priority\":\"5\"}",
                "{\"priority\":1.5}",
                "{\"priority\":99999999999}",
                "{\"weight\":true}",
                "{\"quota_remaining\":\"\"}",
                "{\"group_ids\":\"grp-a\"}",
                "{\"group_ids\":[5]}",
                "{\"model_mappings\":{\"from\":\"a\",\"to\":\"b\"}}",
                "{\"model_mappings\":[5]}",
                "{\"model_mappings\":[{\"from\":5,\"to\":\"b\"}]}")) {
            refusals.add(new Refusal("PATCH", "/credentials/" + credential, field, "validation.field_type"));
        }
        refusals.add(new Refusal("PATCH", "/credentials/" + credential, "[1,2]", "validation.malformed_json"));
        refusals.add(new Refusal("PATCH", "/credentials/" + credential, "\"text\"", "validation.malformed_json"));
        refusals.add(
                new Refusal("POST", "/access-keys", "{\"name\":\"k\",\"expires_at\":true}", "validation.field_type"));
        refusals.add(new Refusal(
                "POST", "/groups", "{\"name\":\"g\",\"affinity_enabled\":\"yes\"}", "validation.field_type"));
        refusals.add(
                new Refusal("PATCH", "/settings", "{\"blacklist_threshold\":\"3\"}", "validation.blacklist_threshold"));
        assertRefused(refusals);
    }

    @Test
    void theLargestAcceptedCredentialIsPublishedToTheStateTopic() {
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < Inputs.MAX_GROUP_IDS; i++) {
            groups.add(AdminApiFixtures.createGroup(
                    Map.of("id", unique("g") + "-" + "p".repeat(Inputs.MAX_ID - 14), "name", "g")));
        }
        List<Map<String, String>> mappings = new ArrayList<>();
        for (int i = 0; i < Inputs.MAX_MAPPINGS; i++) {
            // three UTF-8 bytes per character: the largest text a model name can be
            String name = String.format("%03d", i) + "模".repeat(Inputs.MAX_MODEL - 3);
            mappings.add(Map.of("from", name, "to", name));
        }
        String secret = "s".repeat(Inputs.MAX_SECRET);
        String baseUrl = "https://relay.example.test/" + "p".repeat(Inputs.MAX_BASE_URL - 27);
        Map<String, Object> body = new HashMap<>();
        body.put("id", unique("cred-max") + "-" + "x".repeat(Inputs.MAX_ID - 22));
        body.put("name", "名".repeat(Inputs.MAX_NAME));
        body.put("platform", "openai");
        body.put("kind", "api");
        body.put("base_url", baseUrl);
        body.put("secret", secret);
        body.put("model_mappings", mappings);
        body.put("group_ids", groups);
        String id = admin().body(body)
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, id))
                        .isNotEmpty());
        ConsumerRecord<String, String> published =
                TestKafka.readKey(Topics.CREDENTIAL_STATE, id).get(0);
        CredentialSnapshot snapshot = parse(published.value());
        assertThat(snapshot.modelMappings()).hasSize(Inputs.MAX_MAPPINGS);
        assertThat(snapshot.groupIds()).hasSize(Inputs.MAX_GROUP_IDS);
        assertThat(snapshot.baseUrl()).isEqualTo(baseUrl);
        assertThat(secretBox.open(snapshot.secretBinding(), snapshot.encryptedSecret()))
                .isEqualTo(secret);
        // the worst case documented in docs/state-service.md: well under the producer's 1 MiB
        assertThat(published.serializedValueSize()).isBetween(300_000, 500_000);
        System.out.println("largest accepted credential snapshot: " + published.serializedValueSize() + " bytes");
    }

    @Test
    void aSnapshotThatCanNeverBePublishedIsMarkedFailedAndTheRowsBehindItArePublished() {
        String key = unique("cred-oversized");
        double deadLetteredBefore =
                registry.counter("state.outbox.dead_lettered").count();
        OutcomeFixtures.inTransaction(() -> new OutboxEntity(
                        Topics.CREDENTIAL_STATE, key, "{\"older\":true}", java.time.Instant.now())
                .persist()
                .flatMap(ignored -> new OutboxEntity(
                                Topics.CREDENTIAL_STATE,
                                key,
                                "{\"pad\":\"" + "y".repeat(1_100_000) + "\"}",
                                java.time.Instant.now())
                        .persist()));
        String behind = createCredential(unique("cred-behind"), "sk-behind", Map.of());

        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, behind))
                        .isNotEmpty());
        await().atMost(PATIENCE).untilAsserted(() -> {
            List<OutboxEntity> rows =
                    OutcomeFixtures.inSession(() -> OutboxEntity.<OutboxEntity>list("messageKey", key));
            // the superseded older row is gone, the oversized one is kept, marked failed with its reason
            assertThat(rows).singleElement().satisfies(row -> {
                assertThat(row.failedAt).isNotNull();
                assertThat(row.failure).contains("max-message-bytes");
            });
        });
        assertThat(registry.counter("state.outbox.dead_lettered").count()).isGreaterThan(deadLetteredBefore);
        assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, key)).isEmpty();
        await().atMost(PATIENCE)
                .untilAsserted(() -> given().get(Management.url("/health/ready"))
                        .then()
                        .statusCode(200)
                        .body("status", org.hamcrest.Matchers.is("UP"))
                        .body("checks.find { it.name == 'state-outbox' }.status", org.hamcrest.Matchers.is("UP"))
                        .body(
                                "checks.find { it.name == 'state-outbox' }.data.failed_rows",
                                org.hamcrest.Matchers.greaterThanOrEqualTo(1)));
        // still failed, not retried: the count of failures does not grow round after round
        double after = registry.counter("state.outbox.dead_lettered").count();
        String another = createCredential(unique("cred-behind"), "sk-behind-2", Map.of());
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, another))
                        .isNotEmpty());
        assertThat(registry.counter("state.outbox.dead_lettered").count()).isEqualTo(after);
    }

    private static void assertRefused(List<Refusal> refusals) {
        List<String> wrong = new ArrayList<>();
        for (Refusal refusal : refusals) {
            Response response = admin().body(refusal.body()).request(refusal.method(), "/admin/v1" + refusal.path());
            String answer = response.asString();
            if (response.statusCode() != 400
                    || !List.of(refusal.code().split("\\|")).contains(response.path("error.code"))) {
                wrong.add(refusal.method() + " " + refusal.path() + " " + describe(refusal.body()) + " -> "
                        + response.statusCode() + " " + answer.substring(0, Math.min(200, answer.length())));
            } else if (answer.length() > 1000 || answer.contains("xxxxxxxxxx")) {
                wrong.add(refusal.method() + " " + refusal.path() + " echoes the input: " + answer.length()
                        + " characters");
            }
        }
        assertThat(wrong).isEmpty();
    }

    private static String describe(Object body) {
        String text = body instanceof String string ? string : String.valueOf(body);
        return text.length() > 120 ? text.substring(0, 120) + "…" : text.replace(NUL, "\\u0000");
    }

    private static Map<String, Object> credentialWith(String field, Object value) {
        Map<String, Object> body = new HashMap<>(Map.of(
                "name",
                "hostile",
                "platform",
                "openai",
                "kind",
                "api",
                "base_url",
                "https://relay.example.test/v1",
                "secret",
                "sk-hostile"));
        body.put(field, value);
        return body;
    }

    private static CredentialSnapshot parse(String json) {
        try {
            return Json.MAPPER.readValue(json, CredentialSnapshot.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
