package io.routegateway.core.forward;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UnsupportedOperationTests {

    static JsonNode parse(String json) throws Exception {
        return Json.MAPPER.readTree(json);
    }

    @Test
    void thePathDecidesTheProtocolWhoseEnvelopeIsUsed() {
        assertThat(UnsupportedOperation.protocolOf("/v1/messages/count_tokens", false))
                .isEqualTo(Protocol.ANTHROPIC_MESSAGES);
        assertThat(UnsupportedOperation.protocolOf("/v1/messages/batches", false))
                .isEqualTo(Protocol.ANTHROPIC_MESSAGES);
        assertThat(UnsupportedOperation.protocolOf("/v1/files", true)).isEqualTo(Protocol.ANTHROPIC_MESSAGES);
        assertThat(UnsupportedOperation.protocolOf("/v1beta/models/m:countTokens", false))
                .isEqualTo(Protocol.GEMINI);
        assertThat(UnsupportedOperation.protocolOf("/v1/models/m:embedContent", false))
                .isEqualTo(Protocol.GEMINI);
        assertThat(UnsupportedOperation.protocolOf("/v1/embeddings", false)).isEqualTo(Protocol.OPENAI_CHAT);
        assertThat(UnsupportedOperation.protocolOf(null, false)).isEqualTo(Protocol.OPENAI_CHAT);
    }

    @Test
    void eachProtocolGetsItsOwnEnvelopeWithTheCodeInIt() throws Exception {
        String message = "m";
        JsonNode openAi = parse(ErrorEnvelope.of(Protocol.OPENAI_RESPONSES, ReasonCode.OPERATION_UNSUPPORTED, message));
        assertThat(openAi.at("/error/code").asText()).isEqualTo("operation_unsupported");
        assertThat(openAi.at("/error/type").asText()).isEqualTo("routing_error");
        assertThat(openAi.at("/error/param").isNull()).isTrue();

        JsonNode anthropic =
                parse(ErrorEnvelope.of(Protocol.ANTHROPIC_MESSAGES, ReasonCode.OPERATION_UNSUPPORTED, message));
        assertThat(anthropic.get("type").asText()).isEqualTo("error");
        // Anthropic's own type for the status (502): its SDKs pick the exception class by status
        assertThat(anthropic.at("/error/type").asText()).isEqualTo("api_error");
        assertThat(anthropic.at("/error/code").asText()).isEqualTo("operation_unsupported");

        JsonNode gemini = parse(ErrorEnvelope.of(Protocol.GEMINI, ReasonCode.OPERATION_UNSUPPORTED, message));
        assertThat(gemini.at("/error/code").asInt()).isEqualTo(ReasonCode.OPERATION_UNSUPPORTED.httpStatus());
        assertThat(gemini.at("/error/status").asText()).isEqualTo("UNIMPLEMENTED");
        assertThat(gemini.at("/error/details/0/@type").asText()).isEqualTo("type.googleapis.com/google.rpc.ErrorInfo");
        assertThat(gemini.at("/error/details/0/reason").asText()).isEqualTo("operation_unsupported");
    }

    @Test
    void eachStatusGetsTheProtocolsOwnTypeOrStatusNameAndTheGatewaysCodeStays() throws Exception {
        Object[][] rows = {
            {400, "invalid_model", "invalid_request_error", "INVALID_ARGUMENT"},
            {401, "invalid_access_key", "authentication_error", "UNAUTHENTICATED"},
            {403, "model_filtered", "permission_error", "PERMISSION_DENIED"},
            {404, "model_not_found", "not_found_error", "NOT_FOUND"},
            // Anthropic documents timeout_error for 504 only (a 4xx it does not list is invalid_request_error);
            // google.rpc maps DEADLINE_EXCEEDED to 504 and has no mapping for 408
            {408, "request_body_timeout", "invalid_request_error", "INVALID_ARGUMENT"},
            {413, "request_too_large", "request_too_large", "INVALID_ARGUMENT"},
            {429, "rate_limited", "rate_limit_error", "RESOURCE_EXHAUSTED"},
            {500, "internal_error", "api_error", "INTERNAL"},
            {502, "no_available_credential", "api_error", "UNAVAILABLE"},
            {502, "operation_unsupported", "api_error", "UNIMPLEMENTED"},
            {400, "operation_unsupported", "invalid_request_error", "INVALID_ARGUMENT"},
            {503, "x", "overloaded_error", "UNAVAILABLE"},
            {504, "upstream_timeout", "timeout_error", "DEADLINE_EXCEEDED"},
        };
        for (Object[] row : rows) {
            int status = (Integer) row[0];
            String code = (String) row[1];
            JsonNode anthropic = parse(ErrorEnvelope.of(Protocol.ANTHROPIC_MESSAGES, status, code, "msg", "t"));
            assertThat(anthropic.at("/error/type").asText()).as(code).isEqualTo(row[2]);
            assertThat(anthropic.at("/error/code").asText()).isEqualTo(code);
            assertThat(anthropic.at("/error/message").asText()).isEqualTo("msg");
            JsonNode gemini = parse(ErrorEnvelope.of(Protocol.GEMINI, status, code, "msg", "t"));
            assertThat(gemini.at("/error/code").asInt()).isEqualTo(status);
            assertThat(gemini.at("/error/status").asText()).as(code).isEqualTo(row[3]);
            assertThat(gemini.at("/error/details/0/reason").asText()).isEqualTo(code);
            assertThat(gemini.at("/error/message").asText()).isEqualTo("msg");
            JsonNode openAi = parse(ErrorEnvelope.of(null, status, code, "msg", "t"));
            assertThat(openAi.at("/error/code").asText()).isEqualTo(code);
            assertThat(openAi.at("/error/type").asText()).isEqualTo("t");
            assertThat(openAi.at("/error/param").isNull()).isTrue();
        }
    }

    @Test
    void theMessageCarriesTheSpecsMeaningTheOperationAndWhatIsServed() {
        String message = UnsupportedOperation.message("POST", "/v1/messages/count_tokens", Protocol.ANTHROPIC_MESSAGES);
        assertThat(message)
                .startsWith(ReasonCode.OPERATION_UNSUPPORTED.meaning())
                .contains("POST /v1/messages/count_tokens")
                .contains("POST /v1/messages");
    }

    @Test
    void clientTextIsQuotedWithoutControlCharactersAndCut() {
        String quoted = UnsupportedOperation.quoted("/v1/a\u0000b\nc\u001b" + "x".repeat(1000), 50);
        assertThat(quoted).doesNotContain("\u0000", "\n", "\u001b").hasSize(51).endsWith("…");
        assertThat(UnsupportedOperation.quoted("/v1/ok", 50)).isEqualTo("/v1/ok");
    }
}
