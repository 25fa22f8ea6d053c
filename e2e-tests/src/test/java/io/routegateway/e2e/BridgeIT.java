package io.routegateway.e2e;

import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Behaviour;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.demo.DemoUpstream;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Pool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Protocol bridges end to end: Anthropic Messages and Gemini clients against a pool that has only
 * OpenAI-compatible api accounts on the demo upstream, which answers Chat Completions (and plays an
 * agent's turn: offered tools, it calls one; given the result, it answers).
 */
class BridgeIT extends EndToEndTest {

    private static final String SOL = "gpt-5.6-sol";
    private static final String UPSTREAM_SOL = "upstream-sol";

    private static Http.Response messages(String key, boolean stream) {
        ObjectNode body = Http.JSON
                .createObjectNode()
                .put("model", SOL)
                .put("max_tokens", 64)
                .put("stream", stream);
        body.putArray("messages").addObject().put("role", "user").put("content", "Say hello");
        return Http.send(
                "POST",
                system.gateway().baseUrl() + "/v1/messages",
                Map.of("x-api-key", key, "anthropic-version", "2023-06-01"),
                body,
                Duration.ofSeconds(60));
    }

    @Test
    void anAnthropicClientIsServedByAnOpenAiPoolBufferedAndStreamed() {
        Pool pool = Pool.create(system);
        String relay = pool.credential("relay", c -> c.map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", relay));
        pool.awaitVisible(key);
        DemoUpstream demo = system.demo();

        Http.Response buffered = messages(key, false);

        assertThat(buffered.status()).as("%s", buffered).isEqualTo(200);
        assertThat(buffered.json().path("type").asText()).isEqualTo("message");
        assertThat(buffered.json().at("/content/0/type").asText()).isEqualTo("text");
        assertThat(buffered.servedBy()).isEqualTo(relay);

        Http.Response streamed = messages(key, true);

        assertThat(streamed.status()).as("%s", streamed).isEqualTo(200);
        assertThat(streamed.body()).contains("event: message_start").contains("event: message_stop");
        assertThat(streamed.servedBy()).isEqualTo(relay);
        assertThat(demo.requestCount(relay, UPSTREAM_SOL)).isEqualTo(2);
    }

    /** A Messages request offering get_weather; with a call, the assistant's call and its result after it. */
    private static ObjectNode agentTurn(boolean stream, JsonNode call) {
        ObjectNode body = Http.JSON
                .createObjectNode()
                .put("model", SOL)
                .put("max_tokens", 256)
                .put("stream", stream);
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "user").put("content", "Weather in Paris?");
        if (call != null) {
            messages.addObject().put("role", "assistant").putArray("content").add(call);
            messages.addObject()
                    .put("role", "user")
                    .putArray("content")
                    .addObject()
                    .put("type", "tool_result")
                    .put("tool_use_id", call.path("id").asText())
                    .put("content", "18 degrees");
        }
        ObjectNode tool = body.putArray("tools").addObject().put("name", "get_weather");
        tool.putObject("input_schema")
                .put("type", "object")
                .putObject("properties")
                .putObject("city")
                .put("type", "string");
        return body;
    }

    @Test
    void anAnthropicAgentLoopRunsThroughTheBridgeOnTheDemoUpstream() {
        Pool pool = Pool.create(system);
        String relay = pool.credential("relay", c -> c.map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", relay));
        pool.awaitVisible(key);
        Map<String, String> headers = Map.of("x-api-key", key, "anthropic-version", "2023-06-01");
        String url = system.gateway().baseUrl() + "/v1/messages";

        // offered a tool, the demo upstream calls it in Chat Completions; the client reads a tool_use
        Http.Response calling = Http.send("POST", url, headers, agentTurn(false, null), Duration.ofSeconds(60));

        assertThat(calling.status()).as("%s", calling).isEqualTo(200);
        assertThat(calling.json().path("stop_reason").asText()).isEqualTo("tool_use");
        JsonNode call = calling.json().at("/content/0");
        assertThat(call.path("type").asText()).isEqualTo("tool_use");
        assertThat(call.path("id").asText()).isEqualTo("call_demo_1");
        assertThat(call.path("name").asText()).isEqualTo("get_weather");
        assertThat(call.at("/input/city").asText()).isEqualTo("demo city");

        // the result goes back under the call's id; the answer is the final text, streamed too
        Http.Response answered = Http.send("POST", url, headers, agentTurn(false, call), Duration.ofSeconds(60));

        assertThat(answered.status()).as("%s", answered).isEqualTo(200);
        assertThat(answered.json().path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(answered.json().at("/content/0/text").asText()).endsWith("after the tool result");
        assertThat(answered.servedBy()).isEqualTo(relay);

        Http.Response streamedCall = Http.send("POST", url, headers, agentTurn(true, null), Duration.ofSeconds(60));

        assertThat(streamedCall.body())
                .contains("\"tool_use\"")
                .contains("call_demo_1")
                .contains("input_json_delta")
                .contains("event: message_stop");
        assertThat(system.demo().requestCount(relay, UPSTREAM_SOL)).isEqualTo(3);
    }

    @Test
    void aGeminiClientIsServedByAnOpenAiPool() {
        Pool pool = Pool.create(system);
        String relay = pool.credential("relay", c -> c.map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", relay));
        pool.awaitVisible(key);
        ObjectNode body = Http.JSON.createObjectNode();
        body.putArray("contents")
                .addObject()
                .put("role", "user")
                .putArray("parts")
                .addObject()
                .put("text", "Say hello");

        Http.Response response = Http.send(
                "POST",
                system.gateway().baseUrl() + "/v1beta/models/" + SOL + ":generateContent",
                Map.of("x-goog-api-key", key),
                body,
                Duration.ofSeconds(60));

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.json().at("/candidates/0/content/parts/0/text").asText())
                .contains("demo account");
        assertThat(response.servedBy()).isEqualTo(relay);
    }

    @Test
    void aBridgedStreamCutAfterItsFirstChunkIsRecordedOnTheModel() {
        Pool pool = Pool.create(system);
        String cut = pool.credential("cut", c -> c.priority(0).map(SOL, UPSTREAM_SOL));
        String whole = pool.credential("whole", c -> c.priority(1).map(SOL, UPSTREAM_SOL));
        String key = pool.accessKey(pool.group("main", cut, whole));
        pool.awaitVisible(key);
        DemoUpstream demo = system.demo();
        demo.setBehaviour(cut, new Behaviour(Mode.STREAM_CUT, 200, null, 0, 2));

        Http.Response truncated = messages(key, true);

        // the client had bytes: it keeps them, without the terminal event, and nothing is replayed
        assertThat(truncated.status()).isEqualTo(200);
        assertThat(truncated.body()).contains("event: message_start").doesNotContain("message_stop");
        assertThat(demo.requestCount(whole, UPSTREAM_SOL)).as("not failed over").isZero();
        await("truncation recorded on the model, judged on the upstream's stream")
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> {
                    Map<String, Object> row = modelRow(cut, UPSTREAM_SOL);
                    assertThat(row.get("last_failure_kind")).isEqualTo("semantic_response_transient");
                });
        demo.reset(cut);
    }
}
