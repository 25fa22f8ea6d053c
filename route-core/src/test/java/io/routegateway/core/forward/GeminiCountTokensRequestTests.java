package io.routegateway.core.forward;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.upstream.UpstreamRequest;
import io.routegateway.core.upstream.UpstreamRequests;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Gemini countTokens bodies: the shape check, the text an estimate counts, and the native upstream call. */
class GeminiCountTokensRequestTests {

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void contentsOrAGenerateContentRequestAreAcceptedAndEverythingElseNamed() {
        assertThat(GeminiCountTokensRequest.problem(json("{\"contents\":[{\"parts\":[{\"text\":\"a\"}]}]}")))
                .isNull();
        assertThat(GeminiCountTokensRequest.problem(json("{\"contents\":[]}"))).isNull();
        assertThat(
                        GeminiCountTokensRequest.problem(
                                json(
                                        "{\"generateContentRequest\":{\"model\":\"models/m\","
                                                + "\"contents\":[{\"parts\":[]}],\"systemInstruction\":{\"parts\":[{\"text\":\"s\"}]},\"tools\":[]}}")))
                .isNull();
        assertThat(GeminiCountTokensRequest.problem(json("{}"))).isEqualTo("contents must be an array");
        assertThat(GeminiCountTokensRequest.problem(json("{\"contents\":[3]}")))
                .isEqualTo("contents[0] must be an object");
        assertThat(GeminiCountTokensRequest.problem(json("{\"contents\":[{}]}")))
                .isEqualTo("contents[0].parts must be an array");
        assertThat(GeminiCountTokensRequest.problem(json("{\"contents\":[{\"parts\":[1]}]}")))
                .contains("must hold objects");
        assertThat(GeminiCountTokensRequest.problem(json("{\"contents\":[{\"parts\":[{\"text\":{}}]}]}")))
                .contains("text must be a string");
        assertThat(GeminiCountTokensRequest.problem(json("{\"generateContentRequest\":3}")))
                .contains("must be an object");
        assertThat(GeminiCountTokensRequest.problem(
                        json("{\"contents\":[],\"generateContentRequest\":{\"contents\":[]}}")))
                .contains("not both");
        assertThat(GeminiCountTokensRequest.problem(
                        json("{\"generateContentRequest\":{\"contents\":[],\"tools\":{}}}")))
                .contains("tools must be an array");
        assertThat(GeminiCountTokensRequest.problem(
                        json("{\"generateContentRequest\":{\"contents\":[],\"systemInstruction\":\"s\"}}")))
                .contains("systemInstruction must be an object");
    }

    @Test
    void textCallsResponsesInstructionsAndDeclarationsAreCounted() {
        JsonNode body = json("{\"generateContentRequest\":{\"systemInstruction\":{\"parts\":[{\"text\":\"be terse\"}]},"
                + "\"tools\":[{\"functionDeclarations\":[{\"name\":\"lookup\",\"parameters\":{\"type\":\"object\"}}]}],"
                + "\"contents\":[{\"parts\":[{\"text\":\"hi\"},{\"inlineData\":{\"data\":\"AAAA\"}}]},"
                + "{\"parts\":[{\"functionCall\":{\"name\":\"lookup\",\"args\":{\"q\":1}}}]},"
                + "{\"parts\":[{\"functionResponse\":{\"name\":\"lookup\",\"response\":{\"r\":2}}}]}]}}");

        assertThat(GeminiCountTokensRequest.texts(body))
                .containsExactly(
                        "be terse",
                        "{\"name\":\"lookup\",\"parameters\":{\"type\":\"object\"}}",
                        "hi",
                        "lookup",
                        "{\"q\":1}",
                        "lookup",
                        "{\"r\":2}");
        assertThat(GeminiCountTokensRequest.items(body)).isEqualTo(4);
        assertThat(GeminiCountTokensRequest.items(json("{\"contents\":[{\"parts\":[]},{\"parts\":[]}]}")))
                .isEqualTo(2);
    }

    @Test
    void theNativeCallGoesToCountTokensOnTheMappedModel() {
        JsonNode body = json(
                "{\"generateContentRequest\":{\"model\":\"models/m\",\"contents\":[{\"parts\":[{\"text\":\"a\"}]}]}}");
        UpstreamRequest generation = UpstreamRequests.forward(
                Platform.GEMINI, CredentialKind.API, "https://g/", "gk", Protocol.GEMINI, body, List.of(), "up", false);

        UpstreamRequest count = UpstreamRequests.countTokens(generation, body);

        assertThat(count.url()).isEqualTo("https://g/v1beta/models/up:countTokens");
        assertThat(count.stream()).isFalse();
        assertThat(json(new String(count.body(), StandardCharsets.UTF_8))
                        .at("/generateContentRequest/model")
                        .asText())
                .isEqualTo("models/up");
        JsonNode plain = json("{\"contents\":[]}");
        UpstreamRequest anthropic = UpstreamRequests.forward(
                Platform.CLAUDE,
                CredentialKind.API,
                "https://a",
                "sk",
                Protocol.ANTHROPIC_MESSAGES,
                plain,
                List.of(),
                "c",
                false);
        assertThat(UpstreamRequests.countTokens(anthropic, plain).url())
                .isEqualTo("https://a/v1/messages/count_tokens");
    }
}
