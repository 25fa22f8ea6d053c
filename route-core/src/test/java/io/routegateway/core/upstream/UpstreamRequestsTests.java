package io.routegateway.core.upstream;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UpstreamRequestsTests {

    static JsonNode body(String json) throws Exception {
        return Json.MAPPER.readTree(json);
    }

    @Test
    void clientAuthHeadersAreStrippedAndUpstreamAuthIsSetPerPlatform() throws Exception {
        List<Map.Entry<String, String>> client = List.of(
                Map.entry("Authorization", "Bearer rk-client-key"),
                Map.entry("x-api-key", "rk-client-key"),
                Map.entry("x-goog-api-key", "rk-client-key"),
                Map.entry("anthropic-version", "2023-06-01"),
                Map.entry("Cookie", "session=1"));
        UpstreamRequest claude = UpstreamRequests.forward(
                Platform.CLAUDE,
                CredentialKind.API,
                "https://relay.example",
                "sk-up",
                Protocol.ANTHROPIC_MESSAGES,
                body("{\"model\":\"claude-x\"}"),
                client,
                "claude-up",
                false);
        assertThat(claude.headers())
                .extracting(Map.Entry::getValue)
                .doesNotContain("Bearer rk-client-key", "rk-client-key", "session=1");
        assertThat(claude.header("x-api-key")).isEqualTo("sk-up");
        assertThat(claude.header("anthropic-version")).isEqualTo("2023-06-01");

        UpstreamRequest openai = UpstreamRequests.forward(
                Platform.OPENAI,
                CredentialKind.API,
                "https://relay.example",
                "sk-up",
                Protocol.OPENAI_CHAT,
                body("{\"model\":\"m\"}"),
                client,
                "m",
                false);
        assertThat(openai.header("authorization")).isEqualTo("Bearer sk-up");
        assertThat(openai.header("x-api-key")).isNull();

        UpstreamRequest gemini = UpstreamRequests.forward(
                Platform.GEMINI,
                CredentialKind.API,
                "https://g.example",
                "gk",
                Protocol.GEMINI,
                body("{\"contents\":[]}"),
                client,
                "gemini-2.5-pro",
                true);
        assertThat(gemini.header("x-goog-api-key")).isEqualTo("gk");
        assertThat(gemini.url())
                .isEqualTo("https://g.example/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    }

    @Test
    void theModelIsRewrittenThroughTheMappingAndOneMBecomesABetaHeader() throws Exception {
        UpstreamRequest request = UpstreamRequests.forward(
                Platform.CLAUDE,
                CredentialKind.API,
                "https://relay.example/v1",
                "sk",
                Protocol.ANTHROPIC_MESSAGES,
                body("{\"model\":\"claude-sonnet-alias[1m]\",\"max_tokens\":5}"),
                List.of(),
                "claude-sonnet-up[1m]",
                true);
        JsonNode sent = Json.MAPPER.readTree(request.body());
        assertThat(sent.get("model").asText()).isEqualTo("claude-sonnet-up");
        assertThat(sent.get("max_tokens").asInt()).isEqualTo(5);
        assertThat(request.header("anthropic-beta")).contains("context-1m-2025-08-07");
        assertThat(request.url()).isEqualTo("https://relay.example/v1/messages");
        assertThat(request.header("accept")).isEqualTo("text/event-stream");
    }

    @Test
    void eachAttemptRewritesTheModelWithoutChangingOrCopyingTheClientsPrompt() throws Exception {
        JsonNode client = body("{\"model\":\"alias\",\"stream\":true,"
                + "\"stream_options\":{\"chunk\":7},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        String before = client.toString();
        for (String upstream : List.of("first-up", "second-up")) {
            UpstreamRequest request = UpstreamRequests.forward(
                    Platform.OPENAI,
                    CredentialKind.API,
                    "https://relay.example/v1",
                    "sk",
                    Protocol.OPENAI_CHAT,
                    client,
                    List.of(),
                    upstream,
                    true);
            JsonNode sent = Json.MAPPER.readTree(request.body());
            assertThat(sent.path("model").asText()).isEqualTo(upstream);
            assertThat(sent.path("stream_options").path("include_usage").asBoolean())
                    .isTrue();
            assertThat(sent.path("stream_options").path("chunk").asInt())
                    .as("the client's options kept")
                    .isEqualTo(7);
            assertThat(sent.path("messages")).isEqualTo(client.path("messages"));
        }
        assertThat(client.toString())
                .as("the client's body is shared by attempts, never changed")
                .isEqualTo(before);
        com.fasterxml.jackson.databind.node.ObjectNode original =
                (com.fasterxml.jackson.databind.node.ObjectNode) client;
        assertThat(UpstreamRequests.shallowCopy(original).get("messages"))
                .as("the prompt is shared, not copied")
                .isSameAs(original.get("messages"));
    }

    @Test
    void officialClaudeAccountsUseBearerOauth() throws Exception {
        UpstreamRequest request = UpstreamRequests.forward(
                Platform.CLAUDE,
                CredentialKind.OFFICIAL,
                "https://api.anthropic.example",
                "oauth-token",
                Protocol.ANTHROPIC_MESSAGES,
                body("{}"),
                List.of(),
                "claude-sonnet-4-5",
                false);
        assertThat(request.header("authorization")).isEqualTo("Bearer oauth-token");
        assertThat(request.header("anthropic-beta")).contains("oauth-2025-04-20");
    }

    @Test
    void officialCodexRequestsNameTheChatGptAccountAndNothingElseDoes() throws Exception {
        UpstreamRequest official = UpstreamRequests.forward(
                Platform.CODEX,
                CredentialKind.OFFICIAL,
                "https://chatgpt.example/backend-api/codex",
                "access-token",
                Protocol.OPENAI_RESPONSES,
                body("{\"model\":\"gpt-5\",\"input\":\"hi\"}"),
                List.of(Map.entry("chatgpt-account-id", "client-chosen")),
                "gpt-5",
                false,
                "acct-123");
        assertThat(official.header("chatgpt-account-id")).isEqualTo("acct-123");
        assertThat(official.headers().stream().filter(h -> h.getKey().equals("chatgpt-account-id")))
                .as("a client's own header never passes")
                .hasSize(1);
        assertThat(official.header("authorization")).isEqualTo("Bearer access-token");
        // official requests never rewrite the model
        assertThat(Json.MAPPER.readTree(official.body()).get("model").asText()).isEqualTo("gpt-5");

        UpstreamRequest api = UpstreamRequests.forward(
                Platform.CODEX,
                CredentialKind.API,
                "https://relay.example",
                "sk",
                Protocol.OPENAI_RESPONSES,
                body("{}"),
                List.of(),
                "gpt-5",
                false,
                "acct-123");
        assertThat(api.header("chatgpt-account-id")).isNull();
        UpstreamRequest claude = UpstreamRequests.forward(
                Platform.CLAUDE,
                CredentialKind.OFFICIAL,
                "https://api.anthropic.example",
                "t",
                Protocol.ANTHROPIC_MESSAGES,
                body("{}"),
                List.of(),
                "claude-sonnet-4-5",
                false,
                "acct-123");
        assertThat(claude.header("chatgpt-account-id")).isNull();
        UpstreamRequest noAccount = UpstreamRequests.forward(
                Platform.CODEX,
                CredentialKind.OFFICIAL,
                "https://chatgpt.example",
                "t",
                Protocol.OPENAI_RESPONSES,
                body("{}"),
                List.of(),
                "gpt-5",
                false,
                null);
        assertThat(noAccount.header("chatgpt-account-id")).isNull();
        assertThat(UpstreamRequests.modelTest(
                                Platform.CODEX,
                                CredentialKind.OFFICIAL,
                                "https://chatgpt.example",
                                "t",
                                "gpt-5",
                                "acct-9")
                        .header("chatgpt-account-id"))
                .isEqualTo("acct-9");
    }

    @ParameterizedTest(name = "account id {0}")
    @ValueSource(strings = {"acct\r\nx-injected: 1", "acct 1", "acct\u0000", "ácct", ""})
    void anAccountIdThatCannotBeAHeaderValueIsRefused(String accountId) {
        assertThatThrownBy(() -> UpstreamRequests.forward(
                        Platform.CODEX,
                        CredentialKind.OFFICIAL,
                        "https://chatgpt.example",
                        "t",
                        Protocol.OPENAI_RESPONSES,
                        body("{}"),
                        List.of(),
                        "gpt-5",
                        false,
                        accountId))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("x-injected");
        assertThatThrownBy(() -> UpstreamRequests.forward(
                        Platform.CODEX,
                        CredentialKind.OFFICIAL,
                        "https://chatgpt.example",
                        "t",
                        Protocol.OPENAI_RESPONSES,
                        body("{}"),
                        List.of(),
                        "gpt-5",
                        false,
                        "a".repeat(257)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void officialGeminiAccountsSendTheAccessTokenAsABearerAndApiKeysAsXGoogApiKey() throws Exception {
        UpstreamRequest official = UpstreamRequests.forward(
                Platform.GEMINI,
                CredentialKind.OFFICIAL,
                "https://generativelanguage.example",
                "ya29.token",
                Protocol.GEMINI,
                body("{\"contents\":[]}"),
                List.of(),
                "gemini-2.5-pro",
                false);
        assertThat(official.header("authorization")).isEqualTo("Bearer ya29.token");
        assertThat(official.header("x-goog-api-key")).isNull();
        UpstreamRequest api = UpstreamRequests.forward(
                Platform.GEMINI,
                CredentialKind.API,
                "https://generativelanguage.example",
                "AIza-key",
                Protocol.GEMINI,
                body("{\"contents\":[]}"),
                List.of(),
                "gemini-2.5-pro",
                false);
        assertThat(api.header("x-goog-api-key")).isEqualTo("AIza-key");
        assertThat(api.header("authorization")).isNull();
    }

    @Test
    void modelTestsSendTheSmallestRealGenerationPerPlatform() throws Exception {
        UpstreamRequest codex =
                UpstreamRequests.modelTest(Platform.CODEX, CredentialKind.API, "https://r.example", "sk", "gpt-5");
        assertThat(codex.url()).endsWith("/v1/responses");
        assertThat(Json.MAPPER.readTree(codex.body()).get("model").asText()).isEqualTo("gpt-5");
        UpstreamRequest claude =
                UpstreamRequests.modelTest(Platform.CLAUDE, CredentialKind.API, "https://r.example", "sk", "c");
        assertThat(claude.url()).endsWith("/v1/messages");
        assertThat(Json.MAPPER.readTree(claude.body()).get("messages")).hasSize(1);
    }
}
