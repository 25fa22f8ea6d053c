package io.routegateway.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.routegateway.demo.Replies.Protocol;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlowStreamTests {

    static Vertx vertx;
    static int port;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        port = new DemoUpstream(vertx)
                .start(0)
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    String post(String path, String body) throws Exception {
        return client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .header("authorization", "Bearer key-slow")
                                .timeout(Duration.ofSeconds(10))
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void aChatStreamHasTheAskedContentFramesThenItsTerminalFrames() throws Exception {
        String body = post(
                "/v1/chat/completions",
                "{\"model\":\"m\",\"stream\":true,\"demo_stream\":{\"frames\":7,\"interval_ms\":5}}");
        assertThat(count(body, "\"delta\":{\"content\":\"tok")).isEqualTo(7);
        assertThat(body)
                .contains("tok6 ")
                .contains("\"finish_reason\":\"stop\"")
                .endsWith("data: [DONE]\n\n");
    }

    @Test
    void anAnthropicStreamOpensAndClosesAsTheProtocolDoes() throws Exception {
        String body = post(
                "/v1/messages", "{\"model\":\"m\",\"stream\":true,\"demo_stream\":{\"frames\":3,\"interval_ms\":0}}");
        assertThat(count(body, "event: content_block_delta")).isEqualTo(3);
        assertThat(body).startsWith("event: message_start").endsWith("data: {\"type\":\"message_stop\"}\n\n");
    }

    @Test
    void eachTickCarriesOneContentFrameTheFirstAndLastCarryTheRest() {
        SlowStream slow = new SlowStream(4, 50);
        List<String> all = Replies.stream(Protocol.OPENAI_RESPONSES, "m", slow.text());
        List<String> ticks = slow.ticks(Protocol.OPENAI_RESPONSES, all);
        assertThat(ticks).hasSize(4);
        assertThat(String.join("", ticks)).isEqualTo(String.join("", all));
        assertThat(ticks.get(0)).startsWith("event: response.created").contains("tok0 ");
        assertThat(ticks.get(1)).contains("tok1 ").doesNotContain("response.completed");
        assertThat(ticks.get(3)).contains("tok3 ").endsWith("}}}\n\n").contains("response.completed");
    }

    @Test
    void anAskOutOfRangeOrMalformedIsAnOrdinaryStream() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertThat(SlowStream.of(json.readTree("{\"demo_stream\":{\"frames\":0,\"interval_ms\":5}}")))
                .isNull();
        assertThat(SlowStream.of(json.readTree("{\"demo_stream\":{\"frames\":100001,\"interval_ms\":5}}")))
                .isNull();
        assertThat(SlowStream.of(json.readTree("{\"demo_stream\":{\"frames\":3,\"interval_ms\":-1}}")))
                .isNull();
        assertThat(SlowStream.of(json.readTree("{\"demo_stream\":\"fast\"}"))).isNull();
        assertThat(SlowStream.of(json.readTree("{\"demo_stream\":{\"frames\":3,\"interval_ms\":60000}}")))
                .isEqualTo(new SlowStream(3, 60_000));
        String body = post(
                "/v1/chat/completions",
                "{\"model\":\"m\",\"stream\":true,\"demo_stream\":{\"frames\":0,\"interval_ms\":5}}");
        assertThat(body)
                .contains("\"content\":\"Hello \"")
                .doesNotContain("tok0")
                .endsWith("data: [DONE]\n\n");
    }
}
