package io.routegateway.state.accesskey;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.event.Topics;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createGroup;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
class AccessKeyAdminTests {

    @Test
    void thePlaintextKeyIsReturnedOnceAndOnlyItsHashIsStored() {
        String group = createGroup(unique("grp"), List.of(), List.of());
        String[] created = createKey(Map.of("name", "team a", "group_ids", List.of(group)));
        String id = created[0];
        String plaintext = created[1];

        assertThat(plaintext).matches("rk-[A-Za-z0-9_-]{32}");
        AccessKeyEntity row = inSession(() -> AccessKeyEntity.<AccessKeyEntity>findById(id));
        assertThat(row.keyHash).isEqualTo(AccessKeys.hash(plaintext)).doesNotContain(plaintext);
        assertThat(row.keyPrefix).isEqualTo(plaintext.substring(0, 7));

        String single = admin().get("/admin/v1/access-keys/" + id)
                .then()
                .statusCode(200)
                .body("key_prefix", equalTo(plaintext.substring(0, 7)))
                .body("group_ids", contains(group))
                .extract()
                .asString();
        String list = admin().get("/admin/v1/access-keys")
                .then()
                .statusCode(200)
                .body("id", hasItem(id))
                .extract()
                .asString();
        String updated = admin().body(Map.of("name", "team a2"))
                .patch("/admin/v1/access-keys/" + id)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        for (String answer : List.of(single, list, updated)) {
            assertThat(answer)
                    .doesNotContain(plaintext)
                    .doesNotContain(row.keyHash)
                    .doesNotContain("\"key\"");
        }
    }

    @Test
    void updateChangesOnlyTheFieldsSentAndNullClearsTheExpiry() {
        String first = createGroup(unique("grp"), List.of(), List.of());
        String second = createGroup(unique("grp"), List.of(), List.of());
        String id = createKey(Map.of(
                "name", "filters",
                "expires_at", "2030-01-01T00:00:00Z",
                "allowed_protocols", List.of("openai_chat"),
                "allowed_models", List.of("gpt-5*"),
                "group_ids", List.of(first)))[0];

        admin().body(Map.of(
                        "enabled",
                        false,
                        "group_ids",
                        List.of(second, first),
                        "allowed_protocols",
                        List.of("gemini", "openai_chat")))
                .patch("/admin/v1/access-keys/" + id)
                .then()
                .statusCode(200)
                .body("enabled", equalTo(false))
                .body("group_ids", contains(second, first))
                .body("allowed_protocols", contains("gemini", "openai_chat"))
                .body("allowed_models", contains("gpt-5*"))
                .body("expires_at", equalTo("2030-01-01T00:00:00Z"))
                .body("version", equalTo(2));

        admin().body("{\"expires_at\": null}")
                .patch("/admin/v1/access-keys/" + id)
                .then()
                .statusCode(200)
                .body("expires_at", nullValue())
                .body("enabled", equalTo(false));
    }

    @Test
    void badInputIsRefusedWithItsCodeAndNothingIsStored() {
        String id = unique("ak");
        error(
                admin().body(Map.of("id", id, "name", " "))
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.name");
        error(
                admin().body(Map.of("id", id, "name", "k", "allowed_protocols", List.of("smtp")))
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.protocol");
        error(
                admin().body(Map.of("id", id, "name", "k", "group_ids", List.of("no-such-group")))
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.group_ids");
        error(
                admin().body(Map.of("id", id, "name", "k", "allowed_models", List.of("")))
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.models");
        error(
                admin().body(Map.of("id", "bad id!", "name", "k"))
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.id");
        error(
                admin().body(Map.of("id", id, "name", "k", "expires_at", "next tuesday"))
                        .post("/admin/v1/access-keys")
                        .then(),
                400,
                "validation.field_type");
        error(admin().get("/admin/v1/access-keys/" + id).then(), 404, "not_found");
    }

    @Test
    void aTakenIdIs409() {
        String id = createKey(Map.of("name", "first"))[0];
        error(
                admin().body(Map.of("id", id, "name", "second"))
                        .post("/admin/v1/access-keys")
                        .then(),
                409,
                "conflict");
    }

    @Test
    void everyChangeIsPublishedAsASnapshotCarryingOnlyTheHashAndDeleteAsATombstone() {
        String[] created = createKey(Map.of("name", "published"));
        String id = created[0];
        // The outbox relay publishes only the newest pending row of a key, so each change waits
        // for the previous one to reach the topic; otherwise a slow relay legitimately skips it.
        awaitPublishedCount(id, 1);
        admin().body(Map.of("enabled", false))
                .patch("/admin/v1/access-keys/" + id)
                .then()
                .statusCode(200);
        awaitPublishedCount(id, 2);
        admin().delete("/admin/v1/access-keys/" + id).then().statusCode(204);
        error(admin().get("/admin/v1/access-keys/" + id).then(), 404, "not_found");

        await().untilAsserted(() -> {
            List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.ACCESS_KEYS, id);
            assertThat(records).hasSize(3);
            assertThat(records.get(0).value())
                    .contains(AccessKeys.hash(created[1]))
                    .doesNotContain(created[1]);
            assertThat(records.get(1).value()).contains("\"enabled\":false").contains("\"version\":2");
            assertThat(records.get(2).value()).isNull();
        });
        admin().get("/admin/v1/access-keys").then().body("id", not(hasItem(id)));
    }

    private static void awaitPublishedCount(String id, int count) {
        await().untilAsserted(() ->
                assertThat(TestKafka.readKey(Topics.ACCESS_KEYS, id)).hasSize(count));
    }
}
