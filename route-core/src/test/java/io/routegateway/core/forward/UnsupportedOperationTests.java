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
        assertThat(anthropic.at("/error/type").asText()).isEqualTo("routing_error");
        assertThat(anthropic.at("/error/code").asText()).isEqualTo("operation_unsupported");

        JsonNode gemini = parse(ErrorEnvelope.of(Protocol.GEMINI, ReasonCode.OPERATION_UNSUPPORTED, message));
        assertThat(gemini.at("/error/code").asInt()).isEqualTo(ReasonCode.OPERATION_UNSUPPORTED.httpStatus());
        assertThat(gemini.at("/error/status").asText()).isEqualTo("UNIMPLEMENTED");
        assertThat(gemini.at("/error/details/0/@type").asText()).isEqualTo("type.googleapis.com/google.rpc.ErrorInfo");
        assertThat(gemini.at("/error/details/0/reason").asText()).isEqualTo("operation_unsupported");
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
