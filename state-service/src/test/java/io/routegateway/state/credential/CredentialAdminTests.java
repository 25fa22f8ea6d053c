package io.routegateway.state.credential;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.state.repository.CredentialEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.routegateway.state.support.AdminApiFixtures.admin;
import static io.routegateway.state.support.AdminApiFixtures.createCredential;
import static io.routegateway.state.support.AdminApiFixtures.error;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.inSession;
import static io.routegateway.state.support.OutcomeFixtures.inTransaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
class CredentialAdminTests {

    @Inject
    SecretBox secretBox;

    static Map<String, Object> valid(String id) {
        Map<String, Object> body = new HashMap<>();
        body.put("id", id);
        body.put("name", "relay");
        body.put("platform", "openai");
        body.put("kind", "api");
        body.put("base_url", "https://relay.example.test/v1");
        body.put("secret", "sk-valid-secret-000000");
        return body;
    }

    static CredentialEntity row(String id) {
        return inSession(() -> CredentialEntity.<CredentialEntity>findById(id));
    }

    @Test
    void anOfficialCredentialCreatedWithoutASecretAwaitsAuthorization() {
        String id = unique("cred");
        Map<String, Object> body = valid(id);
        body.put("platform", "claude");
        body.put("kind", "official");
        body.put("base_url", "https://api.anthropic.example.test");
        body.remove("secret");
        admin().body(body)
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201)
                .body("has_secret", equalTo(false))
                .body("oauth.state", equalTo("unauthorized"))
                .body("oauth.access_expires_at", nullValue())
                .body("oauth.last_refresh_error", nullValue());
        assertThat(row(id).encryptedSecret).isEmpty();
        // a change of base URL has nothing to reseal
        admin().body(Map.of("base_url", "https://api2.anthropic.example.test"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("oauth.state", equalTo("unauthorized"));
        // an api key cannot go without a secret
        error(
                admin().body(Map.of("kind", "api", "platform", "openai"))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.secret");
        // one holding a static token is not OAuth-managed
        String withToken = unique("cred");
        Map<String, Object> static_ = valid(withToken);
        static_.put("platform", "claude");
        static_.put("kind", "official");
        admin().body(static_)
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201)
                .body("has_secret", equalTo(true))
                .body("oauth", nullValue());
        admin().get("/admin/v1/credentials/" + id).then().statusCode(200).body("oauth.state", equalTo("unauthorized"));
    }

    @Test
    void createStoresTheSecretSealedAndAnswersWithHasSecretOnly() {
        String id = unique("cred");
        String secret = "sk-create-" + id;
        Map<String, Object> body = valid(id);
        body.put("name", "primary");
        body.put("base_url", "https://relay.example.test/v1/");
        body.put("secret", secret);
        body.put("model_mappings", List.of(Map.of("from", "gpt-5.6-sol", "to", "upstream-sol")));
        body.put("failure_policy", Map.of("cooldown_enabled", true, "cooldown_seconds", 30));
        body.put(
                "recovery",
                Map.of("mode", "scheduled", "times", List.of("3:00", "03:00", "15:30"), "time_zone", "Asia/Shanghai"));
        body.put("weight_mode", "manual");
        body.put("weight", 70);
        String answer = admin().body(body)
                .post("/admin/v1/credentials")
                .then()
                .statusCode(201)
                .body("has_secret", equalTo(true))
                .body("base_url", equalTo("https://relay.example.test/v1"))
                .body("failure_policy.cooldown_seconds", equalTo(30))
                .body("failure_policy.retry_count", equalTo(2))
                .body("recovery.times", contains("03:00", "15:30"))
                .body("weight", equalTo(70))
                .body("status", equalTo("ok"))
                .body("state_version", equalTo(1))
                .extract()
                .asString();
        assertThat(answer).doesNotContain(secret).doesNotContain("encrypted_secret");

        CredentialEntity stored = row(id);
        assertThat(stored.encryptedSecret).doesNotContain(secret);
        assertThat(secretBox.open(stored.secretBinding(), stored.encryptedSecret))
                .isEqualTo(secret);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "failure_policy out of range|failure_policy|{\"retry_count\":11}|validation.route_credential_failure_policy",
                "semantic threshold 0|failure_policy|{\"semantic_error_threshold\":0}|validation.route_credential_failure_policy",
                "cooldown too long|failure_policy|{\"cooldown_seconds\":86401}|validation.route_credential_failure_policy",
                "scheduled without times|recovery|{\"mode\":\"scheduled\",\"times\":[]}|validation.recovery_times_required",
                "bad time|recovery|{\"mode\":\"scheduled\",\"times\":[\"24:00\"]}|validation.recovery_times",
                "interval 0|recovery|{\"mode\":\"healthcheck\",\"interval_minutes\":0}|validation.recovery_probe_interval",
                "interval over a day|recovery|{\"mode\":\"healthcheck\",\"interval_minutes\":1441}|validation.recovery_probe_interval",
                "unknown mode|recovery|{\"mode\":\"sometimes\"}|validation.recovery_mode",
                "bad zone|recovery|{\"mode\":\"scheduled\",\"times\":[\"03:00\"],\"time_zone\":\"Mars/Olympus\"}|validation.recovery_time_zone",
                "manual weight 0|weight|0|validation.weight",
                "weight 101|weight|101|validation.weight",
                "unknown platform|platform|\"bedrock\"|validation.platform",
                "unknown kind|kind|\"oauth\"|validation.kind",
                "relative base url|base_url|\"relay.example.test\"|validation.base_url",
                "base url with user info|base_url|\"https://user:pw@relay.example.test\"|validation.base_url",
                "blank secret|secret|\"  \"|validation.secret",
                "mapping without from|model_mappings|[{\"to\":\"x\"}]|validation.model_mappings",
                "duplicate mapping|model_mappings|[{\"from\":\"a\",\"to\":\"x\"},{\"from\":\"a\",\"to\":\"y\"}]|validation.model_mappings",
                "negative priority|priority|-1|validation.priority",
                "negative quota|quota_remaining|-1|validation.quota_remaining",
                "unknown group|group_ids|[\"no-such-group\"]|validation.group_ids",
                "blank name|name|\"\"|validation.name",
                "wrong type|enabled|[true]|validation.field_type"
            })
    void badInputOnCreateIsRefusedWithItsCodeAndNothingIsStored(String label, String field, String json, String code)
            throws Exception {
        String id = unique("cred");
        Map<String, Object> body = valid(id);
        body.put(field, new com.fasterxml.jackson.databind.ObjectMapper().readTree(json));
        error(admin().body(body).post("/admin/v1/credentials").then(), 400, code);
        error(admin().get("/admin/v1/credentials/" + id).then(), 404, "not_found");
    }

    @Test
    void thePlatformCapabilityRuleRefusesAnOfficialOpenAiAccount() {
        Map<String, Object> body = valid(unique("cred"));
        body.put("kind", "official");
        error(admin().body(body).post("/admin/v1/credentials").then(), 400, "validation.platform_kind");
        String id = createCredential(unique("cred"), "sk-capability-000000", Map.of());
        error(
                admin().body(Map.of("kind", "official"))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.platform_kind");
        admin().body(Map.of("platform", "claude", "kind", "official"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("kind", equalTo("official"));
    }

    @Test
    void aSecretIsRequiredOnCreateAndKeptWhenAnUpdateLeavesItOut() {
        Map<String, Object> body = valid(unique("cred"));
        body.remove("secret");
        error(admin().body(body).post("/admin/v1/credentials").then(), 400, "validation.secret");

        String id = createCredential(unique("cred"), "sk-kept-secret-000000", Map.of());
        String sealedBefore = row(id).encryptedSecret;
        admin().body(Map.of("name", "renamed"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200);
        assertThat(row(id).encryptedSecret).isEqualTo(sealedBefore);
        admin().body(Map.of("secret", "sk-rotated-secret-000000"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200);
        assertThat(secretBox.open(row(id).secretBinding(), row(id).encryptedSecret))
                .isEqualTo("sk-rotated-secret-000000");
    }

    @Test
    void changingBaseUrlOrPlatformReSealsTheSecretUnderTheNewBinding() {
        String id = createCredential(unique("cred"), "sk-bound-secret-000000", Map.of());
        CredentialEntity before = row(id);

        // the key goes to a new host only when it is entered again for it
        error(
                admin().body(Map.of("base_url", "https://other-relay.example.test/v1"))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.secret_required");
        assertThat(row(id).baseUrl).isEqualTo(before.baseUrl);
        assertThat(row(id).encryptedSecret).isEqualTo(before.encryptedSecret);
        admin().body(Map.of("base_url", "https://other-relay.example.test/v1", "secret", "sk-bound-secret-000000"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200);
        CredentialEntity moved = row(id);
        assertThat(moved.encryptedSecret).isNotEqualTo(before.encryptedSecret);
        assertThat(secretBox.open(moved.secretBinding(), moved.encryptedSecret)).isEqualTo("sk-bound-secret-000000");
        // the old sealed value no longer opens where the credential now points
        assertThatThrownBy(() -> secretBox.open(moved.secretBinding(), before.encryptedSecret))
                .isInstanceOf(IllegalArgumentException.class);

        admin().body(Map.of("platform", "grok"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200);
        CredentialEntity replatformed = row(id);
        assertThat(replatformed.platform).isEqualTo("grok");
        assertThat(secretBox.open(replatformed.secretBinding(), replatformed.encryptedSecret))
                .isEqualTo("sk-bound-secret-000000");
    }

    @Test
    void aBaseUrlEditedOutsideTheAdminApiOrASecretMovedToAnotherCredentialDoesNotOpen() {
        String id = createCredential(unique("cred"), "sk-edited-secret-000000", Map.of());
        String other = createCredential(unique("cred"), "sk-other-secret-000000", Map.of());
        String sealed = row(id).encryptedSecret;

        inTransaction(() -> CredentialEntity.update("baseUrl = ?1 where id = ?2", "https://attacker.example/v1", id));
        CredentialEntity edited = row(id);
        assertThatThrownBy(() -> secretBox.open(edited.secretBinding(), edited.encryptedSecret))
                .isInstanceOf(IllegalArgumentException.class);

        inTransaction(() -> CredentialEntity.update("encryptedSecret = ?1 where id = ?2", sealed, other));
        CredentialEntity moved = row(other);
        assertThatThrownBy(() -> secretBox.open(moved.secretBinding(), moved.encryptedSecret))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCorruptStoredConfigIsNeverOverwrittenByARecoveryWrite() {
        String id = createCredential(unique("cred"), "sk-corrupt-000000", Map.of());
        String corrupt = "{\"model_mappings\": [ oops";
        inTransaction(() -> CredentialEntity.update("configJson = ?1 where id = ?2", corrupt, id));

        error(
                admin().body(Map.of("recovery", Map.of("mode", "healthcheck", "interval_minutes", 30)))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.recovery_config_json");
        assertThat(row(id).configJson).isEqualTo(corrupt);

        // other config writes are refused too, and so is a write that would combine them
        error(
                admin().body(Map.of("failure_policy", Map.of("retry_count", 1)))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.config_json");
        error(
                admin().body(Map.of("name", "n", "recovery", Map.of("mode", "off")))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.recovery_config_json");
        assertThat(row(id).configJson).isEqualTo(corrupt);
        assertThat(row(id).name).isNotEqualTo("n");

        // reads are forgiving: the view falls back to defaults and says the config is invalid
        admin().get("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("config_json_valid", equalTo(false))
                .body("recovery.mode", equalTo("off"));
        // a write that does not touch config_json still works
        admin().body(Map.of("name", "still editable"))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200);
        assertThat(row(id).configJson).isEqualTo(corrupt);
    }

    @Test
    void recoveryWritesKeepTheOtherConfigKeysAndOffRemovesTheKey() {
        String id = createCredential(
                unique("cred"), "sk-recovery-000000", Map.of("failure_policy", Map.of("retry_count", 5)));
        inTransaction(() -> CredentialEntity.update(
                "configJson = ?1 where id = ?2",
                "{\"model_mappings\":[{\"from\":\"a\",\"to\":\"b\"}],\"failure_policy\":{\"retry_count\":5},\"hand_note\":\"keep me\"}",
                id));
        admin().body(Map.of("recovery", Map.of("mode", "healthcheck")))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("recovery.interval_minutes", equalTo(30));
        assertThat(row(id).configJson)
                .contains("\"hand_note\":\"keep me\"")
                .contains("\"retry_count\":5")
                .contains("healthcheck");

        admin().body(Map.of("recovery", Map.of("mode", "off")))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("recovery.mode", equalTo("off"));
        assertThat(row(id).configJson).doesNotContain("recovery").contains("keep me");
    }

    @Test
    void weightRulesOnUpdate() {
        String id = createCredential(unique("cred"), "sk-weight-000000", Map.of());
        error(
                admin().body(Map.of("weight_mode", "manual", "weight", 0))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.weight");
        inTransaction(() -> CredentialEntity.update("weight = 0 where id = ?1", id));
        error(
                admin().body(Map.of("weight_mode", "manual"))
                        .patch("/admin/v1/credentials/" + id)
                        .then(),
                400,
                "validation.weight");
        admin().body(Map.of("weight_mode", "manual", "weight", 1))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("weight", equalTo(1));
    }

    @Test
    void deleteArchivesAndPurgeRemovesWithATombstone() {
        String id = createCredential(unique("cred"), "sk-archive-000000", Map.of());
        admin().delete("/admin/v1/credentials/" + id).then().statusCode(204);
        admin().get("/admin/v1/credentials/" + id).then().statusCode(200).body("archived", equalTo(true));
        admin().get("/admin/v1/credentials").then().body("id", not(hasItem(id)));
        admin().get("/admin/v1/credentials?archived=true").then().body("id", hasItem(id));
        admin().body(Map.of("archived", false))
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("archived", equalTo(false));

        admin().delete("/admin/v1/credentials/" + id + "?purge=true").then().statusCode(204);
        error(admin().get("/admin/v1/credentials/" + id).then(), 404, "not_found");
        assertThat(row(id)).isNull();
    }

    @Test
    void quotaAndMappingsCanBeClearedWithNull() {
        String id = createCredential(unique("cred"), "sk-clear-000000", Map.of("quota_remaining", 500));
        admin().body("{\"quota_remaining\": null, \"model_mappings\": null}")
                .patch("/admin/v1/credentials/" + id)
                .then()
                .statusCode(200)
                .body("quota_remaining", nullValue())
                .body("model_mappings.size()", equalTo(0));
    }

    @Test
    void aTestWhileRecoveryServiceIsDownIs503() {
        // %test.state.recovery-url points at a port nothing listens on
        String id = createCredential(unique("cred"), "sk-recovery-down-000000", Map.of());
        error(admin().post("/admin/v1/credentials/" + id + "/test").then(), 503, "recovery_unavailable");
    }
}
