package io.routegateway.core.headers;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.policy.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HeaderPolicyTests {

    private static final CredentialHeaders CONFIGURED =
            new CredentialHeaders("org-admin", "proj_admin", "assistants=v2", "prompt-caching-2024-07-31", List.of());

    private static List<Map.Entry<String, String>> client(String... pairs) {
        List<Map.Entry<String, String>> headers = new java.util.ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.add(Map.entry(pairs[i], pairs[i + 1]));
        }
        return headers;
    }

    private static Map<String, String> forward(Protocol protocol, CredentialHeaders config, String... pairs) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> header : HeaderPolicy.forward(protocol, client(pairs), config)) {
            assertThat(out.put(header.getKey(), header.getValue()))
                    .as("one " + header.getKey())
                    .isNull();
        }
        return out;
    }

    private static CredentialHeaders parse(String json) {
        try {
            return CredentialHeaders.parse(Json.MAPPER.readTree(json));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void onlyTheHeadersTheUpstreamProtocolReadsPassAndNeverCredentialsOrProxyHeaders() {
        String[] sent = {
            "Authorization",
            "Bearer client",
            "x-api-key",
            "k",
            "Cookie",
            "c",
            "X-Forwarded-For",
            "1.2.3.4",
            "x-goog-api-key",
            "g",
            "User-Agent",
            "sdk/1",
            "Accept-Language",
            "de",
            "anthropic-version",
            "2023-06-01"
        };
        assertThat(forward(Protocol.OPENAI_CHAT, CredentialHeaders.NONE, sent))
                .containsOnlyKeys("user-agent", "accept-language");
        assertThat(forward(Protocol.ANTHROPIC_MESSAGES, CredentialHeaders.NONE, sent))
                .containsOnlyKeys("user-agent", "accept-language", "anthropic-version");
        assertThat(forward(Protocol.GEMINI, CredentialHeaders.NONE, sent))
                .containsOnlyKeys("user-agent", "accept-language");
    }

    @Test
    void openAiOrganizationComesFromTheCredentialNotTheClient() {
        assertThat(forward(Protocol.OPENAI_CHAT, CredentialHeaders.NONE, "OpenAI-Organization", "org-victim"))
                .doesNotContainKey("openai-organization");
        assertThat(forward(Protocol.OPENAI_CHAT, CONFIGURED, "OpenAI-Organization", "org-victim"))
                .containsEntry("openai-organization", "org-admin");
    }

    @Test
    void openAiProjectComesFromTheCredentialNotTheClient() {
        assertThat(forward(Protocol.OPENAI_RESPONSES, CredentialHeaders.NONE, "OpenAI-Project", "proj_x"))
                .doesNotContainKey("openai-project");
        assertThat(forward(Protocol.OPENAI_RESPONSES, CONFIGURED, "OpenAI-Project", "proj_x"))
                .containsEntry("openai-project", "proj_admin");
    }

    @Test
    void openAiBetaComesFromTheCredentialAndTheClientsIsAddedOnlyWhenAllowed() {
        assertThat(forward(Protocol.OPENAI_CHAT, CONFIGURED, "OpenAI-Beta", "realtime=v1"))
                .containsEntry("openai-beta", "assistants=v2");
        CredentialHeaders open = new CredentialHeaders(null, null, "assistants=v2", null, List.of("openai-beta"));
        assertThat(forward(Protocol.OPENAI_CHAT, open, "OpenAI-Beta", "realtime=v1"))
                .containsEntry("openai-beta", "assistants=v2,realtime=v1");
    }

    @Test
    void anthropicBetaComesFromTheCredentialAndTheClientsIsAddedOnlyWhenAllowed() {
        assertThat(forward(Protocol.ANTHROPIC_MESSAGES, CredentialHeaders.NONE, "anthropic-beta", "tools-2024-04-04"))
                .doesNotContainKey("anthropic-beta");
        assertThat(forward(Protocol.ANTHROPIC_MESSAGES, CONFIGURED, "anthropic-beta", "tools-2024-04-04"))
                .containsEntry("anthropic-beta", "prompt-caching-2024-07-31");
        CredentialHeaders open =
                new CredentialHeaders(null, null, null, "prompt-caching-2024-07-31", List.of("anthropic-beta"));
        assertThat(forward(
                        Protocol.ANTHROPIC_MESSAGES,
                        open,
                        "anthropic-beta",
                        "tools-2024-04-04, prompt-caching-2024-07-31"))
                .containsEntry("anthropic-beta", "prompt-caching-2024-07-31,tools-2024-04-04");
    }

    @Test
    void aClientsOneMContextBetaIsDroppedEvenWhereItMaySetBetasUnlessTheAdminAllowedIt() {
        CredentialHeaders betas = new CredentialHeaders(null, null, null, null, List.of("anthropic-beta"));
        assertThat(forward(Protocol.ANTHROPIC_MESSAGES, betas, "anthropic-beta", "context-1m-2025-08-07"))
                .doesNotContainKey("anthropic-beta");
        assertThat(forward(
                        Protocol.ANTHROPIC_MESSAGES, betas, "anthropic-beta", "Context-1M-2025-08-07,tools-2024-04-04"))
                .containsEntry("anthropic-beta", "tools-2024-04-04");
        CredentialHeaders oneM = new CredentialHeaders(null, null, null, null, List.of("anthropic-beta", "context-1m"));
        assertThat(forward(Protocol.ANTHROPIC_MESSAGES, oneM, "anthropic-beta", "context-1m-2025-08-07"))
                .containsEntry("anthropic-beta", "context-1m-2025-08-07");
    }

    @Test
    void aClientValueReplacesAnIdOnlyWhereTheAdminAllowedIt() {
        CredentialHeaders open = new CredentialHeaders("org-admin", null, null, null, List.of("openai-organization"));
        assertThat(forward(Protocol.OPENAI_CHAT, open, "OpenAI-Organization", "org-mine"))
                .containsEntry("openai-organization", "org-mine");
        assertThat(forward(Protocol.OPENAI_CHAT, open)).containsEntry("openai-organization", "org-admin");
        assertThat(forward(Protocol.OPENAI_CHAT, open, "OpenAI-Organization", "org mine\r\nx-evil: 1"))
                .containsEntry("openai-organization", "org-admin");
    }

    @Test
    void steeringHeadersGoOnlyToTheVendorThatReadsThem() {
        assertThat(forward(Protocol.ANTHROPIC_MESSAGES, CONFIGURED)).containsOnlyKeys("anthropic-beta");
        assertThat(forward(Protocol.OPENAI_CHAT, CONFIGURED))
                .containsOnlyKeys("openai-organization", "openai-project", "openai-beta");
        assertThat(forward(Protocol.GEMINI, CONFIGURED)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0000b", "a\rb", "a\nb", "é", "\u007f"})
    void aClientValueWithAControlOrNonAsciiCharacterIsDropped(String value) {
        assertThat(forward(Protocol.OPENAI_CHAT, CredentialHeaders.NONE, "User-Agent", value))
                .isEmpty();
    }

    @Test
    void anOversizedClientValueIsDropped() {
        assertThat(forward(Protocol.OPENAI_CHAT, CredentialHeaders.NONE, "User-Agent", "a".repeat(1025)))
                .isEmpty();
    }

    @Test
    void theConfigurationParsesStrictlyWithCodes() {
        assertThat(parse("null")).isEqualTo(CredentialHeaders.NONE);
        assertThat(parse("{\"openai_organization\":\"org-1\",\"client_may_set\":[\"OpenAI-Beta\"]}"))
                .isEqualTo(new CredentialHeaders("org-1", null, null, null, List.of("openai-beta")));
        assertCode("{\"openai_organisation\":\"org-1\"}", "validation.unknown_field");
        assertCode("[]", CredentialHeaders.CODE);
        assertCode("{\"openai_organization\":7}", CredentialHeaders.CODE);
        assertCode("{\"openai_organization\":\"\"}", CredentialHeaders.CODE);
        assertCode("{\"openai_organization\":\"org\\u0000x\"}", CredentialHeaders.CODE);
        assertCode("{\"openai_organization\":\"org\\r\\nx-evil: 1\"}", CredentialHeaders.CODE);
        assertCode("{\"openai_project\":\"" + "p".repeat(257) + "\"}", CredentialHeaders.CODE);
        assertCode("{\"openai_beta\":\"a,,b\"}", CredentialHeaders.CODE);
        assertCode("{\"anthropic_beta\":\"" + "b".repeat(1025) + "\"}", CredentialHeaders.CODE);
        assertCode("{\"anthropic_beta\":\"context-1m-2025-08-07\"}", CredentialHeaders.CODE);
        assertCode("{\"client_may_set\":[\"authorization\"]}", CredentialHeaders.CODE);
        assertCode("{\"client_may_set\":\"openai-beta\"}", CredentialHeaders.CODE);
        assertCode("{\"client_may_set\":[1]}", CredentialHeaders.CODE);
    }

    @Test
    void theConfigurationRoundTripsThroughJson() throws Exception {
        String json = Json.MAPPER.writeValueAsString(CONFIGURED);
        JsonNode node = Json.MAPPER.readTree(json);
        assertThat(node.has("openai_organization")).isTrue();
        assertThat(Json.MAPPER.readValue(json, CredentialHeaders.class)).isEqualTo(CONFIGURED);
        assertThat(CredentialHeaders.parse(node)).isEqualTo(CONFIGURED);
    }

    private static void assertCode(String json, String code) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(ValidationException.class)
                .extracting(e -> ((ValidationException) e).code())
                .isEqualTo(code);
    }
}
