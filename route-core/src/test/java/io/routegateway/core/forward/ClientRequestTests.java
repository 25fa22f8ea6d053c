package io.routegateway.core.forward;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** A client request read into what routing needs, or the refusal before routing: one row each. */
class ClientRequestTests {

    static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    static AccessKeySnapshot key(boolean enabled, List<String> allowedModels) {
        return new AccessKeySnapshot(
                "k1", 1, "team", "hash", "sk-", enabled, null, List.of(), allowedModels, List.of("g1"), NOW);
    }

    static final AccessKeySnapshot OPEN = key(true, List.of());

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ClientRequest parse(Protocol protocol, Operation operation, String body) {
        return ClientRequest.parse(protocol, operation, body == null ? null : json(body), null, null, false, OPEN, NOW);
    }

    static Refusal refusal(ClientRequest parsed) {
        assertThat(parsed).isInstanceOf(ClientRequest.Refused.class);
        return ((ClientRequest.Refused) parsed).refusal();
    }

    @ParameterizedTest(name = "{0} {1}: {2} {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                // not a JSON object, whatever the protocol
                "OPENAI_CHAT      | GENERATE     | 400 | invalid_json     | ",
                "OPENAI_CHAT      | GENERATE     | 400 | invalid_json     | [1,2]",
                "OPENAI_CHAT      | GENERATE     | 400 | invalid_json     | \"text\"",
                // the model, read from the body
                "OPENAI_CHAT      | GENERATE     | 400 | model_required   | {\"messages\":[]}",
                "OPENAI_RESPONSES | GENERATE     | 400 | model_required   | {\"model\":\"\",\"input\":\"hi\"}",
                "ANTHROPIC_MESSAGES | GENERATE   | 400 | model_required   | {\"model\":42,\"messages\":[]}",
                "ANTHROPIC_MESSAGES | GENERATE   | 400 | model_required   | {\"model\":{\"a\":1},\"messages\":[]}",
                "ANTHROPIC_MESSAGES | GENERATE   | 400 | invalid_model    | {\"model\":\"a\\u0000b\",\"messages\":[]}",
                // count_tokens' and embeddings' own shape
                "ANTHROPIC_MESSAGES | COUNT_TOKENS | 400 | invalid_request | {\"model\":\"m\"}",
                "OPENAI_CHAT      | EMBEDDINGS   | 400 | invalid_request  | {\"model\":\"m\"}",
                "OPENAI_CHAT      | EMBEDDINGS   | 400 | invalid_request  | {\"model\":\"m\",\"input\":42}"
            })
    void refusalsBeforeRouting(Protocol protocol, Operation operation, int status, String code, String body) {
        Refusal refusal = refusal(parse(protocol, operation, body));
        assertThat(refusal.status()).isEqualTo(status);
        assertThat(refusal.code()).isEqualTo(code);
        assertThat(refusal.type()).isEqualTo(Refusal.INVALID_REQUEST_ERROR);
        assertThat(refusal.message()).isNotBlank();
    }

    @Test
    void aDisabledKeyIsRefusedAsSuchWhateverItsBody() {
        Refusal refusal = refusal(ClientRequest.parse(
                Protocol.OPENAI_CHAT, Operation.GENERATE, json("{}"), null, null, false, key(false, List.of()), NOW));
        assertThat(refusal.code()).isEqualTo("access_key_disabled");
        assertThat(refusal.status()).isEqualTo(ReasonCode.ACCESS_KEY_DISABLED.httpStatus());
    }

    @Test
    void aKeyThatRestrictsModelsAndNamesNoneIsModelRequiredByFilter() {
        Refusal refusal = refusal(ClientRequest.parse(
                Protocol.OPENAI_CHAT, Operation.GENERATE, json("{}"), null, null, false, key(true, List.of("m")), NOW));
        assertThat(refusal.code()).isEqualTo("model_required_by_filter");
    }

    @Test
    void aGeminiModelSegmentThatCannotNameAModelIsInvalidModel() {
        Refusal refusal = refusal(ClientRequest.parse(
                Protocol.GEMINI,
                Operation.GENERATE,
                json("{\"contents\":[]}"),
                "..%2F..%2Fsecret",
                "generateContent",
                false,
                OPEN,
                NOW));
        assertThat(refusal.code()).isEqualTo("invalid_model");
    }

    @Test
    void aChatRequestIsAcceptedWithItsModelStreamAndRoute() {
        ClientRequest.Accepted accepted = (ClientRequest.Accepted) parse(
                Protocol.OPENAI_CHAT,
                Operation.GENERATE,
                "{\"model\":\"gpt-x\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(accepted.model()).isEqualTo("gpt-x");
        assertThat(accepted.clientStream()).isTrue();
        assertThat(accepted.customTools()).isFalse();
        assertThat(accepted.operation()).isEqualTo(Operation.GENERATE);
        assertThat(accepted.route().requestedModel()).isEqualTo("gpt-x");
        assertThat(accepted.bridges()).isNotNull();
    }

    @Test
    void customToolsAreNoticed() {
        ClientRequest.Accepted accepted = (ClientRequest.Accepted) parse(
                Protocol.OPENAI_RESPONSES,
                Operation.GENERATE,
                "{\"model\":\"m\",\"stream\":true,\"input\":\"hi\",\"tools\":[{\"type\":\"custom\",\"name\":\"x\"}]}");
        assertThat(accepted.customTools()).isTrue();
    }

    @Test
    void geminiTakesItsModelAndStreamFromThePath() {
        ClientRequest.Accepted accepted = (ClientRequest.Accepted) ClientRequest.parse(
                Protocol.GEMINI,
                Operation.GENERATE,
                json("{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}"),
                "gemini-2.5-pro",
                "streamGenerateContent",
                false,
                OPEN,
                NOW);
        assertThat(accepted.model()).isEqualTo("gemini-2.5-pro");
        assertThat(accepted.clientStream()).isTrue();
    }

    @Test
    void geminisCountTokensPathIsACountTokensRequestThatNeverStreams() {
        ClientRequest.Accepted accepted = (ClientRequest.Accepted) ClientRequest.parse(
                Protocol.GEMINI,
                Operation.GENERATE,
                json("{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}"),
                "gemini-2.5-pro",
                "countTokens",
                false,
                OPEN,
                NOW);
        assertThat(accepted.operation()).isEqualTo(Operation.COUNT_TOKENS);
        assertThat(accepted.clientStream()).isFalse();
    }

    @Test
    void embeddingsRouteWithoutAffinityOrBridgePlan() {
        ClientRequest.Accepted accepted = (ClientRequest.Accepted)
                parse(Protocol.OPENAI_CHAT, Operation.EMBEDDINGS, "{\"model\":\"e\",\"input\":\"hi\"}");
        assertThat(accepted.operation()).isEqualTo(Operation.EMBEDDINGS);
        assertThat(accepted.bridges()).isNull();
        assertThat(accepted.clientStream()).isFalse();
        assertThat(accepted.route().requestedModel()).isEqualTo("e");
    }
}
