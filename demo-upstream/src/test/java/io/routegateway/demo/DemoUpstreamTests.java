package io.routegateway.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.routegateway.demo.Behaviour.Mode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DemoUpstreamTests {

    static Vertx vertx;
    static DemoUpstream upstream;
    static int port;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        upstream = new DemoUpstream(vertx);
        port = upstream.start(0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void healthy() {
        upstream.reset("key-a");
    }

    HttpResponse<String> post(String path, String key, String body) throws IOException, InterruptedException {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("authorization", "Bearer " + key)
                        .timeout(Duration.ofSeconds(5))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersEachProtocolWithItsTerminalEvent() throws Exception {
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").body())
                .contains("\"finish_reason\":\"stop\"");
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\",\"stream\":true}")
                        .body())
                .endsWith("data: [DONE]\n\n");
        assertThat(post("/v1/responses", "key-a", "{\"model\":\"m\",\"stream\":true}")
                        .body())
                .contains("response.completed");
        assertThat(post("/v1/messages", "key-a", "{\"model\":\"m\",\"stream\":true}")
                        .body())
                .contains("message_stop");
        assertThat(post("/v1beta/models/g:streamGenerateContent", "key-a", "{}").body())
                .contains("\"finishReason\":\"STOP\"");
    }

    @Test
    void echoModeQuotesTheRequestTheWayEachVendorDoes() throws Exception {
        upstream.setBehaviour("key-a", new Behaviour(Mode.ECHO, 400, null, 0, 0));
        HttpResponse<String> chat = post(
                "/v1/chat/completions",
                "key-a",
                "{\"model\":\"invalid_grant\",\"messages\":[{\"role\":\"user\",\"content\":\"p1\"}],"
                        + "\"insufficient quota\":1,\"tools\":[{\"function\":{\"name\":\"t1\"}}]}");
        assertThat(chat.statusCode()).isEqualTo(400);
        assertThat(chat.body())
                .contains("The model `invalid_grant` does not exist")
                .contains("Unrecognized request argument supplied: insufficient quota")
                .contains("Got 't1'")
                .contains("'p1'")
                .contains("\"code\":\"invalid_value\"");

        upstream.setBehaviour("key-a", new Behaviour(Mode.ECHO, 422, null, 0, 0));
        HttpResponse<String> messages =
                post("/v1/messages", "key-a", "{\"model\":\"claude\",\"token has been revoked\":true}");
        assertThat(messages.statusCode()).isEqualTo(422);
        assertThat(messages.body())
                .contains("token has been revoked: Extra inputs are not permitted")
                .contains("\"type\":\"invalid_request_error\"");

        upstream.setBehaviour("key-a", new Behaviour(Mode.ECHO, 404, null, 0, 0));
        HttpResponse<String> gemini = post("/v1beta/models/invalid_grant:generateContent", "key-a", "{\"x\":1}");
        assertThat(gemini.statusCode()).isEqualTo(404);
        assertThat(gemini.body())
                .contains("models/invalid_grant is not found")
                .contains("Unknown name \\\"x\\\"")
                .contains("\"status\":\"NOT_FOUND\"");
    }

    @Test
    void aStatusBehaviourAppliesOnlyToItsModel() throws Exception {
        upstream.setBehaviour("key-a", new Behaviour(Mode.STATUS, 429, "upstream-sol", 0, 0));
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"upstream-sol\"}")
                        .statusCode())
                .isEqualTo(429);
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"upstream-glm\"}")
                        .statusCode())
                .isEqualTo(200);
        assertThat(upstream.requestCount("key-a", "upstream-sol")).isEqualTo(1);
    }

    @Test
    void errorBodyAndQuotaComeWithStatus200() throws Exception {
        upstream.setBehaviour("key-a", new Behaviour(Mode.QUOTA, 200, null, 0, 0));
        HttpResponse<String> quota = post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}");
        assertThat(quota.statusCode()).isEqualTo(200);
        assertThat(quota.body()).contains("quota has been exhausted");
        upstream.setBehaviour("key-a", new Behaviour(Mode.ERROR_BODY, 200, null, 0, 0));
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").body())
                .contains("\"error\"");
    }

    @Test
    void anErrorBodyCarriesTheConfiguredMessageAsJsonText() throws Exception {
        String markup = "<img src=x onerror=\"alert(1)\"> \"quoted\"";
        upstream.setBehaviour("key-a", new Behaviour(Mode.ERROR_BODY, 200, null, 0, 0, markup));
        HttpResponse<String> answer = post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}");
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(answer.body())
                        .path("error")
                        .path("message")
                        .asText())
                .isEqualTo(markup);
    }

    @Test
    void aCutStreamHasNoTerminalEvent() {
        upstream.setBehaviour("key-a", new Behaviour(Mode.STREAM_CUT, 200, null, 0, 1));
        assertThatThrownBy(() -> post("/v1/messages", "key-a", "{\"model\":\"m\",\"stream\":true}"))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aStallSendsNothing() {
        upstream.setBehaviour("key-a", new Behaviour(Mode.STALL, 200, null, 0, 0));
        assertThatThrownBy(() -> client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                                .header("authorization", "Bearer key-a")
                                .timeout(Duration.ofMillis(300))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(HttpTimeoutException.class);
    }

    @Test
    void theControlApiSwitchesBehaviourAtRunTime() throws Exception {
        HttpResponse<String> put = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/_control/accounts/key-a"))
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"mode\":\"status\",\"status\":503}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").statusCode())
                .isEqualTo(503);
        client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/_control/accounts/key-a"))
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").statusCode())
                .isEqualTo(200);
    }

    @Test
    void aStatusCanTurnIntoAnotherAfterItsFirstAnswerWithoutASecondControlCall() throws Exception {
        HttpResponse<String> put = control("{\"mode\":\"status\",\"status\":429,\"then_status\":400,\"model\":\"m\"}");
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"other\"}")
                        .statusCode())
                .as("another model neither meets it nor uses up the first answer")
                .isEqualTo(200);
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").statusCode())
                .isEqualTo(429);
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").statusCode())
                .isEqualTo(400);
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").statusCode())
                .isEqualTo(400);

        for (String refused : new String[] {
            "{\"mode\":\"status\",\"status\":429,\"then_status\":99}",
            "{\"mode\":\"status\",\"status\":429,\"then_status\":600}",
            "{\"mode\":\"echo\",\"status\":400,\"then_status\":200}"
        }) {
            assertThat(control(refused).statusCode()).as(refused).isEqualTo(400);
        }
        assertThat(post("/v1/chat/completions", "key-a", "{\"model\":\"m\"}").statusCode())
                .as("a refused switch leaves the behaviour as it was")
                .isEqualTo(400);
        upstream.reset("key-a");
    }

    private HttpResponse<String> control(String spec) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/_control/accounts/key-a"))
                        .PUT(HttpRequest.BodyPublishers.ofString(spec))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void invalidKeysAreRejected() throws Exception {
        assertThat(post("/v1/chat/completions", "invalid-key", "{}").statusCode())
                .isEqualTo(401);
    }
}
