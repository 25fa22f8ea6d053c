package io.routegateway.state.routecheck;

import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.Affinity;
import io.routegateway.core.select.PoolView;
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
 * The route-check input without a database: one row per refused input (field, value, code), first
 * the checks made before the pool is read, then those only the view can answer.
 */
class RouteCheckRulesTests {

    private static final String NUL = "\u0000";
    private static final String MEGABYTE = "x".repeat(1 << 20);
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final AccessKeySnapshot KEY = new AccessKeySnapshot(
            "key-a", 1, "Key A", "0".repeat(64), "rg-", true, null, List.of(), List.of(), List.of(), NOW);
    private static final PoolView VIEW = PoolView.EMPTY.with(KEY);

    static Stream<Arguments> refusedBeforeTheRead() {
        return Stream.of(
                arguments(Map.of("protocol", "openai_chat"), AdminCodes.ACCESS_KEY),
                arguments(Map.of("access_key_id", " ", "protocol", "openai_chat"), AdminCodes.ACCESS_KEY),
                arguments(Map.of("access_key", "", "protocol", "openai_chat"), AdminCodes.ACCESS_KEY),
                arguments(
                        Map.of("access_key_id", "key-a", "access_key", "rg-secret", "protocol", "openai_chat"),
                        AdminCodes.ACCESS_KEY),
                // the key is checked first, the operation second, the protocol last
                arguments(Map.of("operation", "chat"), AdminCodes.ACCESS_KEY),
                arguments(Map.of("access_key_id", "key-a", "operation", "chat"), AdminCodes.QUERY),
                arguments(Map.of("access_key_id", "key-a", "operation", "Embeddings"), AdminCodes.QUERY),
                arguments(Map.of("access_key_id", "key-a", "operation", "embeddings" + NUL), AdminCodes.QUERY),
                arguments(Map.of("access_key_id", "key-a", "operation", MEGABYTE), AdminCodes.QUERY),
                arguments(Map.of("access_key_id", "key-a"), AdminCodes.PROTOCOL),
                arguments(Map.of("access_key_id", "key-a", "operation", "generate"), AdminCodes.PROTOCOL),
                arguments(Map.of("access_key_id", "key-a", "protocol", "smoke_signals"), AdminCodes.PROTOCOL),
                arguments(Map.of("access_key_id", "key-a", "protocol", "openai_chat" + NUL), AdminCodes.PROTOCOL),
                arguments(Map.of("access_key_id", "key-a", "protocol", MEGABYTE), AdminCodes.PROTOCOL),
                arguments(
                        Map.of("access_key_id", "key-a", "protocol", "gemini", "operation", "embeddings"),
                        AdminCodes.PROTOCOL),
                arguments(
                        Map.of("access_key_id", "key-a", "protocol", "anthropic_messages", "operation", "embeddings"),
                        AdminCodes.PROTOCOL));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource
    void refusedBeforeTheRead(Map<String, Object> fields, String code) {
        refused(() -> RouteCheckRules.check(input(fields)), 400, code);
    }

    static Stream<Arguments> refusedOverTheView() {
        return Stream.of(
                arguments(Map.of("access_key_id", "key" + NUL), 400, AdminCodes.ACCESS_KEY),
                arguments(Map.of("access_key_id", MEGABYTE), 400, AdminCodes.ACCESS_KEY),
                arguments(Map.of("access_key_id", "key-unknown"), 404, AdminCodes.NOT_FOUND),
                arguments(Map.of("remembered_credential_id", "cred" + NUL), 400, AdminCodes.CREDENTIAL_IDS),
                arguments(Map.of("remembered_credential_id", "cred-unknown"), 400, AdminCodes.CREDENTIAL_IDS),
                arguments(Map.of("excluded_credential_ids", List.of("cred" + NUL)), 400, AdminCodes.CREDENTIAL_IDS),
                arguments(Map.of("excluded_credential_ids", List.of(MEGABYTE)), 400, AdminCodes.CREDENTIAL_IDS),
                arguments(
                        Map.of("excluded_credential_ids", Collections.nCopies(Inputs.MAX_CREDENTIAL_IDS + 1, "cred-a")),
                        400,
                        AdminCodes.CREDENTIAL_IDS));
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @MethodSource
    void refusedOverTheView(Map<String, Object> sent, int status, String code) {
        Map<String, Object> fields = new HashMap<>(Map.of("access_key_id", "key-a", "protocol", "openai_chat"));
        fields.putAll(sent);
        RouteCheckRules.Checked checked = RouteCheckRules.check(input(fields));
        refused(() -> RouteCheckRules.route(checked, VIEW, NOW), status, code);
    }

    @Test
    void theCheckedInputNamesTheKeyTheOperationAndTheProtocol() {
        RouteCheckRules.Checked byId =
                RouteCheckRules.check(input(Map.of("access_key_id", "key-a", "protocol", "gemini")));
        assertThat(byId.byId()).isTrue();
        assertThat(byId.embeddings()).isFalse();
        assertThat(byId.protocol()).isEqualTo(Protocol.GEMINI);

        RouteCheckRules.Checked embeddings =
                RouteCheckRules.check(input(Map.of("access_key", "rg-secret", "operation", "embeddings")));
        assertThat(embeddings.byId()).isFalse();
        assertThat(embeddings.embeddings()).isTrue();
        assertThat(embeddings.protocol()).isEqualTo(Protocol.OPENAI_CHAT);
    }

    @Test
    void aKnownKeyWithAnEmptyScopeIsRefusedWithItsAffinityKey() {
        RouteCheckView view = RouteCheckRules.route(
                RouteCheckRules.check(
                        input(Map.of("access_key_id", "key-a", "protocol", "openai_chat", "prompt", "hello"))),
                VIEW,
                NOW);
        assertThat(view.decision()).isEqualTo("refused");
        assertThat(view.selected()).isNull();
        assertThat(view.affinityKey()).hasSize(32).matches("[0-9a-f]+");

        RouteCheckView embeddings = RouteCheckRules.route(
                RouteCheckRules.check(input(Map.of("access_key_id", "key-a", "operation", "embeddings"))), VIEW, NOW);
        assertThat(embeddings.decision()).isEqualTo("refused");
        assertThat(embeddings.affinityKey()).isNull();
    }

    @Test
    void aPlaintextKeyThatMatchesNothingIsInvalidAccessKeyWithoutAnAffinityKey() {
        RouteCheckView view = RouteCheckRules.route(
                RouteCheckRules.check(input(Map.of("access_key", "rg-nothing", "protocol", "openai_chat"))), VIEW, NOW);
        assertThat(view.decision()).isEqualTo("refused");
        assertThat(view.reasonCode()).isEqualTo("invalid_access_key");
        assertThat(view.affinityKey()).isNull();
    }

    @Test
    void aRememberedCredentialNeedsAKnownKeyAndAPrompt() {
        refused(
                () -> RouteCheckRules.route(
                        RouteCheckRules.check(input(Map.of(
                                "access_key",
                                "rg-nothing",
                                "protocol",
                                "openai_chat",
                                "remembered_credential_id",
                                "cred-unknown"))),
                        VIEW,
                        NOW),
                400,
                AdminCodes.CREDENTIAL_IDS);
    }

    @Test
    void theAffinityPrefixIsThePromptCutToItsLengthElseTheBodys() {
        String longPrompt = "p".repeat(Affinity.PREFIX_CHARS + 10);
        assertThat(RouteCheckRules.prefix(input(Map.of("prompt", longPrompt)), Protocol.OPENAI_CHAT))
                .hasSize(Affinity.PREFIX_CHARS);
        assertThat(RouteCheckRules.prefix(input(Map.of("prompt", "short")), Protocol.OPENAI_CHAT))
                .isEqualTo("short");
        assertThat(RouteCheckRules.prefix(input(Map.of()), Protocol.OPENAI_CHAT))
                .isNull();
        Map<String, Object> body = Map.of("messages", List.of(Map.of("role", "user", "content", "from the body")));
        RouteCheckInput withBody = input(Map.of("prompt", " ", "body", body));
        assertThat(RouteCheckRules.prefix(withBody, Protocol.OPENAI_CHAT))
                .isEqualTo(Affinity.promptPrefix(Protocol.OPENAI_CHAT, withBody.body()))
                .contains("from the body");
    }

    private static RouteCheckInput input(Map<String, Object> fields) {
        return JsonBody.read(Json.MAPPER.valueToTree(fields), RouteCheckInput.class)
                .value();
    }

    private static void refused(Supplier<?> input, int status, String code) {
        assertThatThrownBy(input::get)
                .isInstanceOfSatisfying(AdminException.class, refusal -> {
                    assertThat(refusal.code()).isEqualTo(code);
                    assertThat(refusal.status()).isEqualTo(status);
                })
                .satisfies(e -> assertThat(e.getMessage())
                        .hasSizeLessThan(300)
                        .doesNotContain(NUL)
                        .doesNotContain("xxxxxxxx")
                        .doesNotContain("rg-secret"));
    }
}
