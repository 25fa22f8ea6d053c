package io.routegateway.state.group;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.routegateway.core.json.Json;
import io.routegateway.core.model.BridgePolicy;
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

/** The group create and update rules without a database: one row per refused input (field, value, code). */
class GroupRulesTests {

    private static final String NUL = "\u0000";
    private static final String MEGABYTE = "x".repeat(1 << 20);

    static Stream<Arguments> refusedOnCreate() {
        return Stream.of(
                arguments("id", "a b", AdminCodes.ID),
                arguments("id", "grp" + NUL, AdminCodes.ID),
                arguments("name", null, AdminCodes.NAME),
                arguments("name", "team" + NUL, AdminCodes.NAME),
                arguments("name", MEGABYTE, AdminCodes.NAME),
                arguments("weight_mode", "heavy", AdminCodes.WEIGHT_MODE),
                arguments("weight", 0, ValidationCodes.WEIGHT),
                arguments("weight", 101, ValidationCodes.WEIGHT),
                arguments("exposed_models", List.of("gpt" + NUL), AdminCodes.MODELS),
                arguments("exposed_models", List.of(MEGABYTE), AdminCodes.MODELS),
                arguments("bridging", "sometimes", AdminCodes.BRIDGING),
                arguments("credential_ids", List.of("cred" + NUL), AdminCodes.CREDENTIAL_IDS),
                arguments(
                        "credential_ids",
                        Collections.nCopies(Inputs.MAX_CREDENTIAL_IDS + 1, "cred-a"),
                        AdminCodes.CREDENTIAL_IDS));
    }

    @ParameterizedTest(name = "create: {0} = {1} -> {2}")
    @MethodSource
    void refusedOnCreate(String field, Object value, String code) {
        Map<String, Object> fields = new HashMap<>(Map.of("name", "Team A"));
        fields.put(field, value);
        refused(() -> GroupRules.create(body(fields)), code);
    }

    static Stream<Arguments> refusedOnUpdate() {
        return Stream.of(
                arguments("name", null, AdminCodes.NAME),
                arguments("name", "line\nbreak", AdminCodes.NAME),
                arguments("weight_mode", "heavy", AdminCodes.WEIGHT_MODE),
                arguments("weight", 0, ValidationCodes.WEIGHT),
                arguments("exposed_models", List.of("gpt" + NUL), AdminCodes.MODELS),
                arguments("bridging", "sometimes", AdminCodes.BRIDGING),
                arguments("credential_ids", List.of(MEGABYTE), AdminCodes.CREDENTIAL_IDS));
    }

    @ParameterizedTest(name = "update: {0} = {1} -> {2}")
    @MethodSource
    void refusedOnUpdate(String field, Object value, String code) {
        Map<String, Object> fields = new HashMap<>();
        fields.put(field, value);
        refused(() -> GroupRules.update(WeightMode.AUTO, 100, body(fields)), code);
    }

    @Test
    void aLegacyZeroWeightCannotBeSwitchedToManual() {
        refused(
                () -> GroupRules.update(WeightMode.AUTO, 0, body(Map.of("weight_mode", "manual"))),
                ValidationCodes.WEIGHT);
    }

    @Test
    void anAcceptedCreateMapsEveryFieldWithItsDefaults() {
        GroupRules.NewGroup group = GroupRules.create(body(Map.of("name", " Team A ")));
        assertThat(group.id()).startsWith("grp");
        assertThat(group.name()).isEqualTo("Team A");
        assertThat(group.enabled()).isTrue();
        assertThat(group.weightMode()).isEqualTo(WeightMode.AUTO);
        assertThat(group.weight()).isEqualTo(100);
        assertThat(group.exposedModels()).isEmpty();
        assertThat(group.affinityEnabled()).isFalse();
        assertThat(group.bridging()).isEqualTo(BridgePolicy.NATIVE_FIRST);
        assertThat(group.credentialIds()).isEmpty();

        GroupRules.NewGroup full = GroupRules.create(body(Map.of(
                "id",
                "grp-x",
                "name",
                "Team B",
                "enabled",
                false,
                "weight_mode",
                "manual",
                "weight",
                7,
                "exposed_models",
                List.of("gpt-4o"),
                "affinity_enabled",
                true,
                "bridging",
                "native_only",
                "credential_ids",
                List.of("cred-b", "cred-a"))));
        assertThat(full.id()).isEqualTo("grp-x");
        assertThat(full.enabled()).isFalse();
        assertThat(full.weightMode()).isEqualTo(WeightMode.MANUAL);
        assertThat(full.weight()).isEqualTo(7);
        assertThat(full.exposedModels()).containsExactly("gpt-4o");
        assertThat(full.affinityEnabled()).isTrue();
        assertThat(full.bridging()).isEqualTo(BridgePolicy.NATIVE_ONLY);
        assertThat(full.credentialIds()).containsExactly("cred-b", "cred-a");
    }

    @Test
    void anUpdateChangesOnlyWhatWasSent() {
        GroupRules.Changes nothing = GroupRules.update(WeightMode.MANUAL, 30, body(Map.of()));
        assertThat(nothing.name()).isNull();
        assertThat(nothing.enabled()).isNull();
        assertThat(nothing.weight().mode()).isEqualTo(WeightMode.MANUAL);
        assertThat(nothing.weight().weight()).isEqualTo(30);
        assertThat(nothing.exposedModels()).isNull();
        assertThat(nothing.affinityEnabled()).isNull();
        assertThat(nothing.bridging()).isNull();
        assertThat(nothing.credentialIds()).isNull();

        GroupRules.Changes changes = GroupRules.update(
                WeightMode.MANUAL,
                30,
                body(Map.of("exposed_models", List.of(), "credential_ids", List.of(), "bridging", "any")));
        assertThat(changes.exposedModels()).isEmpty();
        assertThat(changes.credentialIds()).isEmpty();
        assertThat(changes.bridging()).isEqualTo(BridgePolicy.ANY);
    }

    private static JsonBody<GroupInput> body(Map<String, Object> fields) {
        return JsonBody.read(Json.MAPPER.valueToTree(fields), GroupInput.class);
    }

    static void refused(Supplier<?> input, String code) {
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
