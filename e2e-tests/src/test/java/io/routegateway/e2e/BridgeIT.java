package io.routegateway.e2e;

import java.time.Duration;
import java.util.Map;

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
 * OpenAI-compatible api accounts on the demo upstream, which answers Chat Completions.
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
