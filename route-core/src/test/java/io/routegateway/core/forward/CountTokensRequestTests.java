package io.routegateway.core.forward;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.upstream.UpstreamRequest;
import io.routegateway.core.upstream.UpstreamRequests;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CountTokensRequestTests {

    private static JsonNode body(String json) throws Exception {
        return Json.MAPPER.readTree(json);
    }

    @Test
    void theTextOfSystemMessagesToolUseToolResultsAndToolsIsCounted() throws Exception {
        JsonNode body = body("{\"system\":[{\"type\":\"text\",\"text\":\"sys\"}],\"messages\":["
                + "{\"role\":\"user\",\"content\":\"plain\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"name\":\"f\",\"input\":{\"a\":1}},"
                + "{\"type\":\"image\",\"source\":{\"data\":\"AAAA\"}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"content\":[{\"type\":\"text\",\"text\":\"res\"}]}]}],"
                + "\"tools\":[{\"name\":\"f\",\"description\":\"d\",\"input_schema\":{\"type\":\"object\"}}]}");

        assertThat(CountTokensRequest.problem(body)).isNull();
        assertThat(CountTokensRequest.texts(body))
                .containsExactly("sys", "plain", "f", "{\"a\":1}", "res", "f", "d", "{\"type\":\"object\"}");
        assertThat(CountTokensRequest.items(body)).isEqualTo(4);
    }

    @Test
    void wrongShapesAreProblems() throws Exception {
        assertThat(CountTokensRequest.problem(body("{}"))).contains("messages");
        assertThat(CountTokensRequest.problem(body("{\"messages\":{}}"))).contains("messages");
        assertThat(CountTokensRequest.problem(body("{\"messages\":[1]}"))).contains("object");
        assertThat(CountTokensRequest.problem(body("{\"messages\":[{\"content\":true}]}")))
                .contains("content");
        assertThat(CountTokensRequest.problem(body("{\"messages\":[],\"system\":1}")))
                .contains("system");
        assertThat(CountTokensRequest.problem(body("{\"messages\":[],\"tools\":\"x\"}")))
                .contains("tools");
    }

    @Test
    void theUpstreamCallIsTheMessagesRequestPostedToCountTokens() {
        UpstreamRequest messages = new UpstreamRequest(
                "POST", "https://relay/v1/messages", List.of(Map.entry("x-api-key", "k")), new byte[] {1}, true, "m");

        UpstreamRequest count = UpstreamRequests.countTokens(messages);

        assertThat(count.url()).isEqualTo("https://relay/v1/messages/count_tokens");
        assertThat(count.stream()).isFalse();
        assertThat(count.header("x-api-key")).isEqualTo("k");
        assertThat(count.body()).containsExactly(1);
        assertThat(count.upstreamModel()).isEqualTo("m");
    }
}
