package io.routegateway.state.credential;

import java.time.ZoneId;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.ValidationCodes;
import io.routegateway.core.policy.ValidationException;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The credential create and update rules without a database: one row per refused input (field,
 * value, code), and what an accepted body maps to.
 */
class CredentialRulesTests {

    private static final String NUL = "\u0000";
    private static final String LONE = "\uD800";
    private static final String MEGABYTE = "x".repeat(1 << 20);
    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");
    private static final CredentialRules.Stored STORED =
            new CredentialRules.Stored("openai", "api", "{}", WeightMode.AUTO, 50, true);

    static Stream<Arguments> refusedOnCreate() {
        return Stream.of(
                arguments("id", "a b", AdminCodes.ID),
                arguments("id", "cred" + NUL, AdminCodes.ID),
                arguments("id", "c".repeat(Inputs.MAX_ID + 1), AdminCodes.ID),
                arguments("name", null, AdminCodes.NAME),
                arguments("name", " ", AdminCodes.NAME),
                arguments("name", "team" + NUL, AdminCodes.NAME),
                arguments("name", "team" + LONE, AdminCodes.NAME),
                arguments("name", "line\nbreak", AdminCodes.NAME),
                arguments("name", MEGABYTE, AdminCodes.NAME),
                arguments("platform", null, AdminCodes.PLATFORM),
                arguments("platform", "nope", AdminCodes.PLATFORM),
                arguments("platform", "claude" + NUL, AdminCodes.PLATFORM),
                arguments("kind", null, AdminCodes.KIND),
                arguments("kind", "nope", AdminCodes.KIND),
                arguments("kind", "official", AdminCodes.PLATFORM_KIND),
                arguments("base_url", null, AdminCodes.BASE_URL),
                arguments("base_url", " ", AdminCodes.BASE_URL),
                arguments("base_url", "ftp://upstream.test", AdminCodes.BASE_URL),
                arguments("base_url", "upstream.test/v1", AdminCodes.BASE_URL),
                arguments("base_url", "https://upstream.test/v1?key=1", AdminCodes.BASE_URL),
                arguments("base_url", "https://user:pw@upstream.test", AdminCodes.BASE_URL),
                arguments("base_url", "https://upstream.test/" + NUL, AdminCodes.BASE_URL),
                arguments("base_url", "https://upstream.test/" + "p".repeat(Inputs.MAX_BASE_URL), AdminCodes.BASE_URL),
                arguments("secret", null, AdminCodes.SECRET),
                arguments("secret", "  ", AdminCodes.SECRET),
                arguments("secret", "sk test", AdminCodes.SECRET),
                arguments("secret", "sk" + NUL, AdminCodes.SECRET),
                arguments("secret", "sk-\u00e9", AdminCodes.SECRET),
                arguments("secret", MEGABYTE, AdminCodes.SECRET),
                arguments("model_mappings", List.of(Map.of("from", "", "to", "up")), AdminCodes.MODEL_MAPPINGS),
                arguments(
                        "model_mappings", List.of(Map.of("from", "gpt" + NUL, "to", "up")), AdminCodes.MODEL_MAPPINGS),
                arguments(
                        "model_mappings",
                        List.of(Map.of("from", "gpt", "to", "a"), Map.of("from", "gpt", "to", "b")),
                        AdminCodes.MODEL_MAPPINGS),
                arguments(
                        "model_mappings",
                        Collections.nCopies(Inputs.MAX_MAPPINGS + 1, Map.of("from", "a", "to", "b")),
                        AdminCodes.MODEL_MAPPINGS),
                arguments("failure_policy", Map.of("retry_count", 11), ValidationCodes.FAILURE_POLICY),
                arguments("failure_policy", Map.of("cooldown_seconds", 0), ValidationCodes.FAILURE_POLICY),
                arguments("failure_policy", Map.of("retry_count", "3"), ValidationCodes.FAILURE_POLICY),
                arguments("recovery", Map.of("mode", "scheduled"), ValidationCodes.RECOVERY_TIMES_REQUIRED),
                arguments("priority", -1, AdminCodes.PRIORITY),
                arguments("priority", CredentialRules.MAX_PRIORITY + 1, AdminCodes.PRIORITY),
                arguments("weight_mode", "heavy", AdminCodes.WEIGHT_MODE),
                arguments("weight", 0, ValidationCodes.WEIGHT),
                arguments("weight", 101, ValidationCodes.WEIGHT),
                arguments("quota_remaining", -1L, AdminCodes.QUOTA),
                arguments("group_ids", List.of("grp" + NUL), AdminCodes.GROUP_IDS),
                arguments("group_ids", List.of(MEGABYTE), AdminCodes.GROUP_IDS),
                arguments("group_ids", Collections.nCopies(Inputs.MAX_GROUP_IDS + 1, "grp-a"), AdminCodes.GROUP_IDS));
    }

    @ParameterizedTest(name = "create: {0} = {1} -> {2}")
    @MethodSource
    void refusedOnCreate(String field, Object value, String code) {
        Map<String, Object> fields = validCreate();
        fields.put(field, value);
        refused(() -> CredentialRules.create(body(fields), ZONE), code);
    }

    static Stream<Arguments> refusedOnUpdate() {
        return Stream.of(
                arguments("name", null, AdminCodes.NAME),
                arguments("name", "team" + NUL, AdminCodes.NAME),
                arguments("name", MEGABYTE, AdminCodes.NAME),
                arguments("platform", "nope", AdminCodes.PLATFORM),
                arguments("kind", "nope", AdminCodes.KIND),
                // the stored platform (openai) does not accept official accounts
                arguments("kind", "official", AdminCodes.PLATFORM_KIND),
                arguments("base_url", null, AdminCodes.BASE_URL),
                arguments("base_url", "https://upstream.test/" + NUL, AdminCodes.BASE_URL),
                arguments("secret", null, AdminCodes.SECRET),
                arguments("secret", "", AdminCodes.SECRET),
                arguments("secret", "sk" + NUL, AdminCodes.SECRET),
                arguments("model_mappings", List.of(Map.of("from", MEGABYTE, "to", "up")), AdminCodes.MODEL_MAPPINGS),
                arguments("failure_policy", Map.of("semantic_error_threshold", 0), ValidationCodes.FAILURE_POLICY),
                arguments("recovery", Map.of("mode", "scheduled"), ValidationCodes.RECOVERY_TIMES_REQUIRED),
                arguments("priority", -1, AdminCodes.PRIORITY),
                arguments("weight_mode", "heavy", AdminCodes.WEIGHT_MODE),
                arguments("weight", 0, ValidationCodes.WEIGHT),
                arguments("quota_remaining", -5L, AdminCodes.QUOTA),
                arguments("group_ids", List.of("grp" + LONE), AdminCodes.GROUP_IDS));
    }

    @ParameterizedTest(name = "update: {0} = {1} -> {2}")
    @MethodSource
    void refusedOnUpdate(String field, Object value, String code) {
        Map<String, Object> fields = new HashMap<>();
        fields.put(field, value);
        refused(() -> CredentialRules.update(STORED, body(fields), ZONE), code);
    }

    @Test
    void aStoredConfigThatIsNotAnObjectIsNeverOverwritten() {
        var corrupt = new CredentialRules.Stored("openai", "api", "[1,", WeightMode.AUTO, 50, true);
        refused(
                () -> CredentialRules.update(
                        corrupt, body(Map.of("model_mappings", List.of(Map.of("from", "a", "to", "b")))), ZONE),
                AdminCodes.CONFIG_JSON);
        refused(
                () -> CredentialRules.update(corrupt, body(Map.of("recovery", Map.of("mode", "off"))), ZONE),
                ValidationCodes.RECOVERY_CONFIG_JSON);
        // a change that does not touch config_json is still accepted
        assertThat(CredentialRules.update(corrupt, body(Map.of("priority", 3)), ZONE)
                        .configJson())
                .isNull();
    }

    @Test
    void aLegacyZeroWeightCannotBeSwitchedToManualWithoutANewWeight() {
        var legacy = new CredentialRules.Stored("openai", "api", "{}", WeightMode.AUTO, 0, true);
        refused(
                () -> CredentialRules.update(legacy, body(Map.of("weight_mode", "manual")), ZONE),
                ValidationCodes.WEIGHT);
        var changes = CredentialRules.update(legacy, body(Map.of("weight_mode", "manual", "weight", 7)), ZONE);
        assertThat(changes.weight().mode()).isEqualTo(WeightMode.MANUAL);
        assertThat(changes.weight().weight()).isEqualTo(7);
    }

    @Test
    void theFirstBadFieldInInputOrderIsTheOneReported() {
        Map<String, Object> fields = validCreate();
        fields.put("name", "team" + NUL);
        fields.put("priority", -1);
        fields.put("platform", "nope");
        refused(() -> CredentialRules.create(body(fields), ZONE), AdminCodes.NAME);
    }

    @Test
    void anAcceptedCreateMapsEveryFieldWithItsDefaults() {
        CredentialRules.NewCredential created = CredentialRules.create(body(validCreate()), ZONE);
        assertThat(created.id()).startsWith("cred");
        assertThat(created.name()).isEqualTo("Team A");
        assertThat(created.platform()).isEqualTo(Platform.OPENAI);
        assertThat(created.kind()).isEqualTo(CredentialKind.API);
        assertThat(created.baseUrl()).isEqualTo("https://upstream.test/v1");
        assertThat(created.secret()).isEqualTo("sk-test-1");
        assertThat(created.configJson()).isEqualTo("{}");
        assertThat(created.enabled()).isTrue();
        assertThat(created.inPool()).isTrue();
        assertThat(created.archived()).isFalse();
        assertThat(created.priority()).isZero();
        assertThat(created.weightMode()).isEqualTo(WeightMode.AUTO);
        assertThat(created.weight()).isNull();
        assertThat(created.quotaRemaining()).isNull();
        assertThat(created.groupIds()).isEmpty();
        assertThat(created.toString()).doesNotContain("sk-test-1");

        Map<String, Object> fields = validCreate();
        fields.putAll(Map.of(
                "id",
                "cred-x",
                "enabled",
                false,
                "in_pool",
                false,
                "archived",
                true,
                "priority",
                CredentialRules.MAX_PRIORITY,
                "weight_mode",
                "manual",
                "weight",
                100,
                "quota_remaining",
                0L,
                "group_ids",
                List.of("grp-a", "grp-b"),
                "model_mappings",
                List.of(Map.of("from", "*", "to", "up"))));
        CredentialRules.NewCredential full = CredentialRules.create(body(fields), ZONE);
        assertThat(full.id()).isEqualTo("cred-x");
        assertThat(full.enabled()).isFalse();
        assertThat(full.inPool()).isFalse();
        assertThat(full.archived()).isTrue();
        assertThat(full.priority()).isEqualTo(CredentialRules.MAX_PRIORITY);
        assertThat(full.weightMode()).isEqualTo(WeightMode.MANUAL);
        assertThat(full.weight()).isEqualTo(100);
        assertThat(full.quotaRemaining()).isZero();
        assertThat(full.groupIds()).containsExactly("grp-a", "grp-b");
        assertThat(Json.readObject(full.configJson()).orElseThrow().get("model_mappings"))
                .hasSize(1);
    }

    @Test
    void aScheduledRecoveryWithoutAZoneGetsTheGivenOne() {
        Map<String, Object> fields = validCreate();
        fields.put("recovery", Map.of("mode", "scheduled", "times", List.of("03:00")));
        String config = CredentialRules.create(body(fields), ZONE).configJson();
        assertThat(Json.readObject(config).orElseThrow().get("recovery").toString())
                .contains("Asia/Shanghai");
    }

    @Test
    void anUpdateChangesOnlyWhatWasSent() {
        CredentialRules.Changes nothing = CredentialRules.update(STORED, body(Map.of()), ZONE);
        assertThat(nothing.name()).isNull();
        assertThat(nothing.platform()).isEqualTo(Platform.OPENAI);
        assertThat(nothing.kind()).isEqualTo(CredentialKind.API);
        assertThat(nothing.baseUrlSent()).isFalse();
        assertThat(nothing.secret()).isNull();
        assertThat(nothing.configJson()).isNull();
        assertThat(nothing.enabled()).isNull();
        assertThat(nothing.inPool()).isNull();
        assertThat(nothing.archived()).isNull();
        assertThat(nothing.priority()).isNull();
        assertThat(nothing.weight().mode()).isEqualTo(WeightMode.AUTO);
        assertThat(nothing.weight().weight()).isEqualTo(50);
        assertThat(nothing.quotaSent()).isFalse();
        assertThat(nothing.groupIds()).isNull();

        Map<String, Object> sent = new HashMap<>();
        sent.put("platform", "grok");
        sent.put("kind", "official");
        sent.put("secret", " sk-new ");
        sent.put("quota_remaining", null);
        sent.put("group_ids", List.of());
        CredentialRules.Changes changes = CredentialRules.update(STORED, body(sent), ZONE);
        assertThat(changes.platform()).isEqualTo(Platform.GROK);
        assertThat(changes.kind()).isEqualTo(CredentialKind.OFFICIAL);
        assertThat(changes.secret()).isEqualTo("sk-new");
        assertThat(changes.quotaSent()).isTrue();
        assertThat(changes.quotaRemaining()).isNull();
        assertThat(changes.groupIds()).isEmpty();
        assertThat(changes.toString()).doesNotContain("sk-new");
    }

    @Test
    void anOfficialCredentialMayBeCreatedWithoutASecretToBeAuthorizedLater() {
        Map<String, Object> fields = validCreate();
        fields.put("platform", "claude");
        fields.put("kind", "official");
        fields.remove("secret");
        assertThat(CredentialRules.create(body(fields), ZONE).secret()).isNull();
        fields.put("secret", null);
        assertThat(CredentialRules.create(body(fields), ZONE).secret()).isNull();
        // a secret that is sent must still be one
        fields.put("secret", "  ");
        refused(() -> CredentialRules.create(body(fields), ZONE), AdminCodes.SECRET);
        fields.put("secret", "tok" + NUL);
        refused(() -> CredentialRules.create(body(fields), ZONE), AdminCodes.SECRET);
        // an api key never goes without one
        Map<String, Object> api = validCreate();
        api.remove("secret");
        refused(() -> CredentialRules.create(body(api), ZONE), AdminCodes.SECRET);
    }

    @Test
    void turningASecretlessOfficialCredentialIntoAnApiKeyNeedsASecret() {
        var secretless = new CredentialRules.Stored("claude", "official", "{}", WeightMode.AUTO, 50, false);
        refused(() -> CredentialRules.update(secretless, body(Map.of("kind", "api")), ZONE), AdminCodes.SECRET);
        assertThat(CredentialRules.update(secretless, body(Map.of("kind", "api", "secret", "sk-new")), ZONE)
                        .kind())
                .isEqualTo(CredentialKind.API);
        // staying official without a secret is fine
        assertThat(CredentialRules.update(secretless, body(Map.of("name", "sub")), ZONE)
                        .kind())
                .isEqualTo(CredentialKind.OFFICIAL);
    }

    private static Map<String, Object> validCreate() {
        Map<String, Object> fields = new HashMap<>();
        fields.put("name", " Team A ");
        fields.put("platform", "openai");
        fields.put("kind", "api");
        fields.put("base_url", "https://upstream.test/v1");
        fields.put("secret", "sk-test-1");
        return fields;
    }

    private static JsonBody<CredentialInput> body(Map<String, Object> fields) {
        return JsonBody.read(Json.MAPPER.valueToTree(fields), CredentialInput.class);
    }

    private static void refused(Supplier<?> input, String code) {
        assertThatThrownBy(input::get)
                .satisfiesAnyOf(
                        e -> assertThat(e).isInstanceOfSatisfying(AdminException.class, refusal -> {
                            assertThat(refusal.code()).isEqualTo(code);
                            assertThat(refusal.status()).isEqualTo(400);
                        }),
                        e -> assertThat(e)
                                .isInstanceOfSatisfying(
                                        ValidationException.class,
                                        refusal -> assertThat(refusal.code()).isEqualTo(code)))
                .satisfies(e -> assertThat(e.getMessage())
                        .hasSizeLessThan(300)
                        .doesNotContain(NUL)
                        .doesNotContain("xxxxxxxx"));
    }
}
