package io.routegateway.state.credential;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.support.AdminApiFixtures;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static io.routegateway.state.support.OutcomeFixtures.models;
import static io.routegateway.state.support.OutcomeFixtures.timeline;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** The 模型状态 section and the manual actions, checked against the stored rows. */
@QuarkusTest
class ModelActionTests {

    @Inject
    CredentialEventService events;

    String credentialWithFailures() {
        String id = createCredential(unique("cred"), "sk-models-000000", AdminApiFixtures.COOLING_FOR_AN_HOUR);
        await(() -> events.apply(failure(id, Instant.now(), "upstream-sol")));
        return id;
    }

    static Map<String, CredentialModelEntity> rows(String id) {
        Map<String, CredentialModelEntity> byKey = new java.util.TreeMap<>();
        models(id).forEach(row -> byKey.put(row.modelKey, row));
        return byKey;
    }

    @Test
    void everyKnownModelIsListedIncludingNeverFailedOnes() {
        String id = credentialWithFailures();
        admin().get("/admin/v1/credentials/" + id + "/models")
                .then()
                .statusCode(200)
                .body("model_key", contains("upstream-sol", "upstream-glm"))
                .body("find { it.model_key == 'upstream-sol' }.reason", equalTo("cooling"))
                .body("find { it.model_key == 'upstream-sol' }.available", equalTo(false))
                .body("find { it.model_key == 'upstream-sol' }.remaining_cooldown_seconds", notNullValue())
                .body("find { it.model_key == 'upstream-sol' }.last_failure_message", equalTo("upstream returned 429"))
                .body("find { it.model_key == 'upstream-sol' }.aliases", contains("gpt-5.6-sol"))
                .body("find { it.model_key == 'upstream-sol' }.display_name", equalTo("upstream-sol (gpt-5.6-sol)"))
                .body("find { it.model_key == 'upstream-glm' }.has_row", equalTo(false))
                .body("find { it.model_key == 'upstream-glm' }.status", equalTo("ok"))
                .body("find { it.model_key == 'upstream-glm' }.reason", nullValue());
    }

    @Test
    void aRowWhoseMappingWasRemovedIsMarked() {
        String id = credentialWithFailures();
        admin().body(Map.of("model_mappings", List.of(Map.of("from", "glm-5.3", "to", "upstream-glm"))))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200);
        admin().get("/admin/v1/credentials/" + id + "/models")
                .then()
                .body("find { it.model_key == 'upstream-sol' }.mapping_removed", equalTo(true))
                .body("find { it.model_key == 'upstream-sol' }.display_name", equalTo("upstream-sol (已移除映射)"));
    }

    @Test
    void aHealthyModelCanBePausedAndResumeRemovesTheRowAgain() {
        String id = createCredential(unique("cred"), "sk-pause-000000", Map.of());
        admin().post("/admin/v1/credentials/" + id + "/models/upstream-glm/pause")
                .then()
                .statusCode(200)
                .body("find { it.model_key == 'upstream-glm' }.status", equalTo("paused"))
                .body("find { it.model_key == 'upstream-glm' }.reason", equalTo("paused"));
        assertThat(rows(id).get("upstream-glm").status).isEqualTo("paused");

        admin().post("/admin/v1/credentials/" + id + "/models/upstream-glm/resume")
                .then()
                .statusCode(200)
                .body("find { it.model_key == 'upstream-glm' }.status", equalTo("ok"));
        assertThat(rows(id)).doesNotContainKey("upstream-glm");
    }

    @Test
    void clearDropsCooldownAndErrorButAPauseStays() {
        String id = credentialWithFailures();
        admin().post("/admin/v1/credentials/" + id + "/models/upstream-sol/clear")
                .then()
                .statusCode(200)
                .body("find { it.model_key == 'upstream-sol' }.available", equalTo(true));
        assertThat(rows(id)).doesNotContainKey("upstream-sol");

        await(() -> events.apply(failure(id, Instant.now(), "upstream-glm")));
        admin().post("/admin/v1/credentials/" + id + "/models/upstream-glm/pause")
                .then()
                .statusCode(200);
        admin().post("/admin/v1/credentials/" + id + "/models/upstream-glm/clear")
                .then()
                .statusCode(200);
        CredentialModelEntity paused = rows(id).get("upstream-glm");
        assertThat(paused.status).isEqualTo("paused");
        assertThat(paused.transientFailureCount).isZero();
        assertThat(paused.cooldownUntil).isNull();
    }

    @Test
    void clearAllSkipsPausedModels() {
        String id = credentialWithFailures();
        admin().post("/admin/v1/credentials/" + id + "/models/upstream-glm/pause")
                .then()
                .statusCode(200);

        admin().post("/admin/v1/credentials/" + id + "/models/clear-all")
                .then()
                .statusCode(200)
                .body("find { it.model_key == 'upstream-sol' }.has_row", equalTo(false))
                .body("find { it.model_key == 'upstream-glm' }.status", equalTo("paused"));
        assertThat(rows(id).keySet()).containsExactly("upstream-glm");
        assertThat(timeline(id)).anySatisfy(line -> assertThat(line.cause).isEqualTo("all-models-cleared.v1"));
    }

    @Test
    void modelKeysWithSlashesWork() {
        String id = createCredential(
                unique("cred"),
                "sk-slash-000000",
                Map.of("model_mappings", List.of(Map.of("from", "llama", "to", "meta-llama/Llama-4"))));
        admin().post("/admin/v1/credentials/" + id + "/models/meta-llama/Llama-4/pause")
                .then()
                .statusCode(200)
                .body("find { it.model_key == 'meta-llama/Llama-4' }.status", equalTo("paused"));
        // an encoded slash names the same key
        admin().urlEncodingEnabled(false)
                .post("/admin/v1/credentials/" + id + "/models/meta-llama%2FLlama-4/resume")
                .then()
                .statusCode(200)
                .body("find { it.model_key == 'meta-llama/Llama-4' }.status", equalTo("ok"));
    }

    @Test
    void aModelTheCredentialDoesNotServeIs404AndAnAliasNamesItsKey() {
        String id = createCredential(unique("cred"), "sk-unknown-model-000000", Map.of());
        error(
                admin().post("/admin/v1/credentials/" + id + "/models/claude-opus/pause")
                        .then(),
                404,
                "not_found");
        error(
                        admin().post("/admin/v1/credentials/" + id + "/models/gpt-5.6-sol/pause")
                                .then(),
                        404,
                        "not_found")
                .body("error.message", containsString("upstream-sol"));
        assertThat(rows(id)).isEmpty();
    }

    @Test
    void accountPauseResumeAndRestoreGoThroughTheTransition() {
        String id = createCredential(unique("cred"), "sk-account-000000", Map.of());
        admin().post("/admin/v1/credentials/" + id + "/pause")
                .then()
                .statusCode(200)
                .body("status", equalTo("paused"));
        admin().post("/admin/v1/credentials/" + id + "/resume")
                .then()
                .statusCode(200)
                .body("status", equalTo("ok"));

        await(() -> events.apply(new CredentialEvent.PermanentFailureRecorded(
                UUID.randomUUID(), id, Instant.now(), null, "upstream_status", 401, "invalid_grant", null)));
        admin().get("/admin/v1/credentials/" + id).then().body("status", equalTo("revoked"));
        admin().post("/admin/v1/credentials/" + id + "/restore")
                .then()
                .statusCode(200)
                .body("status", equalTo("ok"))
                .body("account.last_failure_message", nullValue());
        CredentialEntity row = io.routegateway.state.support.OutcomeFixtures.credential(id);
        assertThat(row.status).isEqualTo("ok");
        assertThat(row.lastFailureKind).isNull();
        admin().get("/admin/v1/credentials/" + id + "/timeline?limit=2")
                .then()
                .statusCode(200)
                .body("items", hasSize(2))
                .body("items[0].cause", equalTo("credential-restored.v1"))
                .body("items[0].to", equalTo("ok"))
                .body("items[1].to", equalTo("revoked"))
                .body("next_cursor", notNullValue());
    }

    @Test
    void theTimelineIsPagedNewestFirst() {
        String id = createCredential(unique("cred"), "sk-timeline-000000", Map.of());
        for (int i = 0; i < 3; i++) {
            admin().post("/admin/v1/credentials/" + id + "/pause").then().statusCode(200);
            admin().post("/admin/v1/credentials/" + id + "/resume").then().statusCode(200);
        }
        var first = admin().get("/admin/v1/credentials/" + id + "/timeline?limit=4")
                .then()
                .statusCode(200)
                .extract();
        List<Integer> firstIds = first.path("items.id");
        String cursor = first.path("next_cursor");
        var second = admin().get("/admin/v1/credentials/" + id + "/timeline?limit=4&cursor=" + cursor)
                .then()
                .statusCode(200)
                .extract();
        List<Integer> secondIds = second.path("items.id");
        assertThat(firstIds).hasSize(4).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(secondIds).hasSize(2);
        assertThat(secondIds.get(0)).isLessThan(firstIds.get(3));
        assertThat((Object) second.path("next_cursor")).isNull();
    }
}
