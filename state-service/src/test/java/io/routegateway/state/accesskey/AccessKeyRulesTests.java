package io.routegateway.state.accesskey;

import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
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

/** The AccessKey create and update rules without a database: one row per refused input (field, value, code). */
class AccessKeyRulesTests {

    private static final String NUL = "\u0000";
    private static final String MEGABYTE = "x".repeat(1 << 20);

    static Stream<Arguments> refused() {
        return Stream.of(
                arguments("name", null, AdminCodes.NAME),
                arguments("name", "team" + NUL, AdminCodes.NAME),
                arguments("name", MEGABYTE, AdminCodes.NAME),
                arguments("expires_at", "2030-01-01T00:00:00Z" + NUL, AdminCodes.FIELD_TYPE),
                arguments("expires_at", " 2030-01-01T00:00:00Z\n", AdminCodes.FIELD_TYPE),
                arguments("allowed_protocols", List.of("smoke_signals"), AdminCodes.PROTOCOL),
                arguments("allowed_protocols", List.of("openai_chat" + NUL), AdminCodes.PROTOCOL),
                arguments("allowed_models", List.of("gpt" + NUL), AdminCodes.MODELS),
                arguments("allowed_models", List.of(MEGABYTE), AdminCodes.MODELS),
                arguments("group_ids", List.of("grp" + NUL), AdminCodes.GROUP_IDS),
                arguments("group_ids", Collections.nCopies(Inputs.MAX_GROUP_IDS + 1, "grp-a"), AdminCodes.GROUP_IDS));
    }

    @ParameterizedTest(name = "create: {0} = {1} -> {2}")
    @MethodSource("refused")
    void refusedOnCreate(String field, Object value, String code) {
        Map<String, Object> fields = new HashMap<>(Map.of("name", "Team A"));
        fields.put(field, value);
        refused(() -> AccessKeyRules.create(body(fields)), code);
    }

    @ParameterizedTest(name = "update: {0} = {1} -> {2}")
    @MethodSource("refused")
    void refusedOnUpdate(String field, Object value, String code) {
        Map<String, Object> fields = new HashMap<>();
        fields.put(field, value);
        refused(() -> AccessKeyRules.update(body(fields)), code);
    }

    @Test
    void aBadIdIsRefusedOnCreate() {
        refused(() -> AccessKeyRules.create(body(Map.of("id", "a b", "name", "n"))), AdminCodes.ID);
        refused(() -> AccessKeyRules.create(body(Map.of("id", "ak" + NUL, "name", "n"))), AdminCodes.ID);
    }

    @Test
    void anAcceptedCreateMapsEveryField() {
        AccessKeyRules.NewAccessKey key = AccessKeyRules.create(body(Map.of("name", "Team A")));
        assertThat(key.id()).startsWith("ak");
        assertThat(key.enabled()).isTrue();
        assertThat(key.expiresAt()).isNull();
        assertThat(key.allowedProtocols()).isEmpty();
        assertThat(key.allowedModels()).isEmpty();
        assertThat(key.groupIds()).isEmpty();

        AccessKeyRules.NewAccessKey full = AccessKeyRules.create(body(Map.of(
                "name",
                "Team B",
                "enabled",
                false,
                "expires_at",
                "2030-01-01T00:00:00Z",
                "allowed_protocols",
                List.of("openai_chat"),
                "allowed_models",
                List.of("gpt-4o"),
                "group_ids",
                List.of("grp-b", "grp-a"))));
        assertThat(full.enabled()).isFalse();
        assertThat(full.expiresAt()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(full.allowedProtocols()).containsExactly(Protocol.OPENAI_CHAT);
        assertThat(full.allowedModels()).containsExactly("gpt-4o");
        assertThat(full.groupIds()).containsExactly("grp-b", "grp-a");
    }

    @Test
    void anUpdateChangesOnlyWhatWasSentAndAnExpiryCanBeCleared() {
        AccessKeyRules.Changes nothing = AccessKeyRules.update(body(Map.of()));
        assertThat(nothing.name()).isNull();
        assertThat(nothing.enabled()).isNull();
        assertThat(nothing.expirySent()).isFalse();
        assertThat(nothing.allowedProtocols()).isNull();
        assertThat(nothing.allowedModels()).isNull();
        assertThat(nothing.groupIds()).isNull();

        Map<String, Object> clear = new HashMap<>();
        clear.put("expires_at", null);
        AccessKeyRules.Changes cleared = AccessKeyRules.update(body(clear));
        assertThat(cleared.expirySent()).isTrue();
        assertThat(cleared.expiresAt()).isNull();
    }

    private static JsonBody<AccessKeyInput> body(Map<String, Object> fields) {
        return JsonBody.read(Json.MAPPER.valueToTree(fields), AccessKeyInput.class);
    }

    private static void refused(Supplier<?> input, String code) {
        assertThatThrownBy(input::get).isInstanceOfSatisfying(AdminException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).hasSizeLessThan(300).doesNotContain(NUL).doesNotContain("xxxxxxxx");
        });
    }
}
