package io.routegateway.state.group;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.Topics;
import io.routegateway.state.repository.GroupEntity;
import io.routegateway.state.support.TestKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.createGroup;
import static io.routegateway.state.support.AdminApiFixtures.createKey;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static io.routegateway.state.support.OutcomeFixtures.inTransaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
class GroupAdminTests {

    @Test
    void aManualWeightOfZeroIsRefusedOnCreate() {
        String id = unique("grp");
        error(
                admin().body(Map.of("id", id, "name", "g", "weight_mode", "manual", "weight", 0))
                        .post("/admin/v1/groups")
                        .then(),
                400,
                "validation.weight");
        error(admin().get("/admin/v1/groups/" + id).then(), 404, "not_found");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -5, 101})
    void anOutOfRangeWeightIsRefusedOnUpdateAndTheGroupIsUnchanged(int weight) {
        String id = createGroup(Map.of("id", unique("grp"), "name", "g", "weight_mode", "manual", "weight", 30));
        error(
                admin().body(Map.of("weight", weight))
                        .patch("/admin/v1/groups/" + id)
                        .then(),
                400,
                "validation.weight");
        admin().get("/admin/v1/groups/" + id).then().body("weight", equalTo(30)).body("version", equalTo(1));
    }

    @Test
    void aLegacyZeroCannotBeSwitchedToManual() {
        String id = createGroup(Map.of("id", unique("grp"), "name", "legacy"));
        inTransaction(() -> GroupEntity.update("weight = 0 where id = ?1", id));
        error(
                admin().body(Map.of("weight_mode", "manual"))
                        .patch("/admin/v1/groups/" + id)
                        .then(),
                400,
                "validation.weight");
        admin().body(Map.of("weight_mode", "manual", "weight", 20))
                .patch("/admin/v1/groups/" + id)
                .then()
                .statusCode(200)
                .body("weight_mode", equalTo("manual"))
                .body("effective_weight", equalTo(20));
    }

    @Test
    void manualOneToHundredIsAcceptedAndAutoUsesTheDefaultWeight() {
        admin().body(Map.of("id", unique("grp"), "name", "m", "weight_mode", "manual", "weight", 100))
                .post("/admin/v1/groups")
                .then()
                .statusCode(201)
                .body("effective_weight", equalTo(100));
        admin().body(Map.of("id", unique("grp"), "name", "a"))
                .post("/admin/v1/groups")
                .then()
                .statusCode(201)
                .body("weight_mode", equalTo("auto"))
                .body("effective_weight", equalTo(100));
        error(
                admin().body(Map.of("name", "x", "weight_mode", "sometimes"))
                        .post("/admin/v1/groups")
                        .then(),
                400,
                "validation.weight_mode");
    }

    @Test
    void membershipChangesRepublishEveryCredentialThatJoinedOrLeft() {
        String a = createCredential(unique("cred"), "sk-group-test-a-000000", Map.of());
        String b = createCredential(unique("cred"), "sk-group-test-b-000000", Map.of());
        String group = createGroup(Map.of("id", unique("grp"), "name", "pool", "credential_ids", List.of(a)));
        admin().get("/admin/v1/credentials/" + a).then().body("group_ids", contains(group));

        admin().body(Map.of("credential_ids", List.of(b)))
                .patch("/admin/v1/groups/" + group)
                .then()
                .statusCode(200)
                .body("credential_ids", contains(b));
        admin().get("/admin/v1/credentials/" + a).then().body("group_ids", empty());
        admin().get("/admin/v1/credentials/" + b).then().body("group_ids", contains(group));

        await().untilAsserted(() -> {
            var aSnapshots = TestKafka.readKey(Topics.CREDENTIAL_STATE, a);
            assertThat(aSnapshots.get(aSnapshots.size() - 1).value()).contains("\"group_ids\":[]");
            var bSnapshots = TestKafka.readKey(Topics.CREDENTIAL_STATE, b);
            assertThat(bSnapshots.get(bSnapshots.size() - 1).value()).contains("\"group_ids\":[\"" + group + "\"]");
        });
    }

    @Test
    void unknownMembersAreRefusedAndNothingIsWritten() {
        String id = unique("grp");
        error(
                admin().body(Map.of("id", id, "name", "g", "credential_ids", List.of("no-such-credential")))
                        .post("/admin/v1/groups")
                        .then(),
                400,
                "validation.credential_ids");
        error(admin().get("/admin/v1/groups/" + id).then(), 404, "not_found");
    }

    @Test
    void deletingAGroupTakesItOutOfPoolsAndKeyScopes() {
        String credential = createCredential(unique("cred"), "sk-group-test-c-000000", Map.of());
        String doomed =
                createGroup(Map.of("id", unique("grp"), "name", "doomed", "credential_ids", List.of(credential)));
        String kept = createGroup(Map.of("id", unique("grp"), "name", "kept"));
        String key = createKey(Map.of("name", "scoped", "group_ids", List.of(doomed, kept)))[0];

        admin().delete("/admin/v1/groups/" + doomed).then().statusCode(204);

        error(admin().get("/admin/v1/groups/" + doomed).then(), 404, "not_found");
        admin().get("/admin/v1/credentials/" + credential).then().body("group_ids", empty());
        admin().get("/admin/v1/access-keys/" + key)
                .then()
                .body("group_ids", contains(kept))
                .body("version", equalTo(2));
        assertThat(inSession(() -> GroupEntity.count("id", doomed))).isZero();
        await().untilAsserted(() -> {
            var records = TestKafka.readKey(Topics.GROUPS, doomed);
            assertThat(records.get(records.size() - 1).value()).isNull();
        });
    }
}
