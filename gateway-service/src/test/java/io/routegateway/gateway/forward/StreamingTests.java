package io.routegateway.gateway.forward;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.failure.StreamCompletion;
import io.routegateway.core.model.Platform;
import io.routegateway.core.testing.CredentialBuilder;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.MockUpstream;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.json;
import static io.routegateway.gateway.support.MockUpstream.sse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Streaming passthrough and its failover rules: the first chunk is awaited inside the retry loop;
 * after it, a truncation is recorded, never retried. The five conditions decide passthrough versus
 * buffering (a buffered response carries a content-length, a passed-through one is chunked).
 */
@QuarkusTest
class StreamingTests extends GatewayTestBase {

    static final List<String> CHAT_FRAMES = List.of(
            "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,"
                    + "\"completion_tokens\":2}}\n\n",
            "data: [DONE]\n\n");

    private String a;
    private String b;
    private String keyId;
    private String group;

    @BeforeEach
    void names() {
        a = Pool.uid("a");
        b = Pool.uid("b");
        keyId = Pool.uid("k");
        group = Pool.uid("g");
    }

    private void pool(CredentialBuilder first, CredentialBuilder second) {
        install(
                List.of(
                        first.groups(group).priority(0).build(box),
                        second.groups(group).priority(1).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private HttpResponse<String> streamChat() {
        return post(
                "/v1/chat/completions",
                keyId,
                "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\"," + "\"content\":\"hi\"}]}");
    }

    @Test
    void connectionDeathBeforeTheFirstChunkFailsOver() {
        upstream.on(a, sse(CHAT_FRAMES, 0, 5));
        upstream.on(b, sse(CHAT_FRAMES, -1, 5));
        pool(
                Pool.credential(a).serves("m").policy(0, 10, true, 10),
                Pool.credential(b).serves("m"));

        HttpResponse<String> response = streamChat();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("[DONE]");
        assertThat(upstream.count(b)).isEqualTo(1);
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.TransientFailureRecorded.class,
                        failure -> assertThat(failure.kind()).isEqualTo("transport"));
    }

    @Test
    void empty200FailsOver() {
        upstream.on(
                a,
                (request, body, n) -> request.response()
                        .putHeader("content-type", "text/event-stream")
                        .end());
        upstream.on(b, sse(CHAT_FRAMES, -1, 5));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response = streamChat();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("[DONE]");
        assertThat(upstream.count(a)).isEqualTo(1);
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(
                        CredentialEvent.TransientFailureRecorded.class,
                        failure -> assertThat(failure.kind()).isEqualTo("semantic_response_transient"));
    }

    @Test
    void failureEnvelopeInTheFirstFrameFailsOver() {
        upstream.on(
                a,
                sse(
                        List.of("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                                + "\"message\":\"Overloaded\"}}\n\n"),
                        -1,
                        5));
        upstream.on(b, sse(CHAT_FRAMES, -1, 5));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response = streamChat();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"a\"").contains("[DONE]").doesNotContain("Overloaded");
        assertThat(upstream.count(a)).isEqualTo(1);
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("semantic_response_transient");
                    assertThat(failure.message()).isEqualTo("Overloaded");
                });
    }

    @Test
    void truncationAfterTheFirstChunkIsRecordedNotRetried() {
        upstream.on(a, sse(CHAT_FRAMES, 2, 5));
        upstream.on(b, sse(CHAT_FRAMES, -1, 5));
        pool(
                Pool.credential(a).serves("m").policy(2, 10, true, 10),
                Pool.credential(b).serves("m"));

        HttpResponse<String> response = streamChat();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"a\"").contains("\"b\"").doesNotContain("[DONE]");
        assertThat(upstream.count(a)).isEqualTo(1);
        assertThat(upstream.count(b))
                .as("never retried after bytes reached the client")
                .isZero();
        assertThat(outcomes(a, list -> !list.isEmpty()))
                .singleElement()
                .isInstanceOfSatisfying(CredentialEvent.TransientFailureRecorded.class, failure -> {
                    assertThat(failure.kind()).isEqualTo("semantic_response_transient");
                    assertThat(failure.message()).isEqualTo(StreamCompletion.DISCONNECTED_MESSAGE);
                });
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isFalse();
        assertThat(record.stream()).isTrue();
        assertThat(record.reasonCode()).isEqualTo("semantic_response_transient");
    }

    @Test
    void passthroughReachesTheClientBeforeTheUpstreamHasFinished() throws Exception {
        CompletableFuture<Void> release = new CompletableFuture<>();
        upstream.on(a, (request, body, n) -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write(CHAT_FRAMES.get(0));
            release.thenRun(() -> upstream.vertx().runOnContext(v -> {
                request.response().write(CHAT_FRAMES.get(1));
                request.response().write(CHAT_FRAMES.get(2));
                request.response().end(CHAT_FRAMES.get(3));
            }));
        });
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpRequest request = request("/v1/chat/completions", keyId)
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.headers().firstValue("content-length"))
                .as("passed through, not buffered")
                .isEmpty();
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String first = reader.readLine();
            assertThat(first)
                    .as("the first frame arrives while the upstream still holds the rest")
                    .contains("\"a\"");
            release.complete(null);
            StringBuilder rest = new StringBuilder();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                rest.append(line).append('\n');
            }
            assertThat(rest.toString()).contains("\"b\"").contains("[DONE]");
        }
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.inputTokens()).isEqualTo(5L);
        assertThat(record.outputTokens()).isEqualTo(2L);
        assertThat(record.ttftMs()).isNotNull();
    }

    @Test
    void aClientThatDidNotAskForAStreamGetsABufferedResponse() {
        upstream.on(a, json(200, MockUpstream.CHAT_OK));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("m"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-length")).isPresent();
    }

    @Test
    void anOfficialAccountKeepsTheBufferedPathForAStream() {
        List<String> anthropic = List.of(
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3,"
                        + "\"output_tokens\":1}}}\n\n",
                "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"type\":"
                        + "\"text_delta\",\"text\":\"hi\"}}\n\n",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
        upstream.on(a, sse(anthropic, -1, 20));
        pool(
                Pool.credential(a).platform(Platform.CLAUDE).official(),
                Pool.credential(b).platform(Platform.CLAUDE).serves("m"));

        HttpResponse<String> response = post(
                "/v1/messages",
                keyId,
                "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":5,\"stream\":true,\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-length"))
                .as("buffered")
                .isPresent();
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
        assertThat(response.body()).contains("message_stop");
        assertThat(upstream.hits(a).get(0).headers().get("authorization")).isEqualTo("Bearer " + Pool.secretOf(a));
    }

    @Test
    void aLongResponsesStreamIsCountedFromTheUsageAtTheEndOfItsClosingFrame() {
        // response.completed repeats the whole 100 KB answer before its usage: longer than the kept tail
        List<String> frames = new ArrayList<>();
        frames.add("event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\","
                + "\"status\":\"in_progress\",\"usage\":null}}\n\n");
        String piece = "x".repeat(1_000);
        for (int i = 0; i < 100; i++) {
            frames.add("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                    + "\"delta\":\"" + piece + "\"}\n\n");
        }
        frames.add("event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\","
                + "\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"content\":[{\"type\":"
                + "\"output_text\",\"text\":\"" + piece.repeat(100) + " \\\"usage\\\":{\\\"input_tokens\\\":999}\"}]}],"
                + "\"usage\":{\"input_tokens\":321,\"output_tokens\":9876,\"total_tokens\":10197},"
                + "\"metadata\":{}}}\n\n");
        upstream.on(a, sse(frames, -1, 0));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response =
                post("/v1/responses", keyId, "{\"model\":\"m\",\"stream\":true,\"input\":\"hi\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-length"))
                .as("passed through")
                .isEmpty();
        assertThat(response.body()).endsWith("\"metadata\":{}}}\n\n").hasSizeGreaterThan(200_000);
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.success()).isTrue();
        assertThat(record.inputTokens()).isEqualTo(321L);
        assertThat(record.outputTokens()).isEqualTo(9876L);
    }

    @Test
    void customToolsKeepTheBufferedPathForAStream() {
        List<String> responses = List.of(
                "event: response.created\ndata: {\"type\":\"response.created\"}\n\n",
                "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"usage\":"
                        + "{\"input_tokens\":4,\"output_tokens\":2}}}\n\n");
        upstream.on(a, sse(responses, -1, 20));
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpResponse<String> response = post(
                "/v1/responses",
                keyId,
                "{\"model\":\"m\",\"stream\":true,\"input\":\"hi\",\"tools\":[{\"type\":\"custom\",\"name\":"
                        + "\"apply_patch\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-length"))
                .as("buffered")
                .isPresent();
        assertThat(response.body()).contains("response.completed");
    }

    @Test
    void aNon2xxAnswerToAStreamIsNeverPassedThrough() {
        upstream.on(a, json(429, "{\"error\":{\"message\":\"slow down\"}}"));
        upstream.on(b, sse(CHAT_FRAMES, -1, 5));
        pool(
                Pool.credential(a).serves("m").policy(0, 10, true, 10),
                Pool.credential(b).serves("m"));

        HttpResponse<String> response = streamChat();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("[DONE]").doesNotContain("slow down");
    }

    @Test
    void geminiStreamsNativelyWithTheModelFromThePath() {
        List<String> gemini = List.of(
                "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}]}}]}\n\n",
                "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"!\"}]},\"finishReason\":\"STOP\"}],"
                        + "\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":2}}\n\n");
        upstream.on(a, sse(gemini, -1, 5));
        pool(
                Pool.credential(a).platform(Platform.GEMINI).maps("gem", "gemini-2.5-pro"),
                Pool.credential(b).platform(Platform.GEMINI).serves("gem"));

        HttpResponse<String> response = send(HttpRequest.newBuilder(
                        uri("/v1beta/models/gem:streamGenerateContent?alt=sse&key=" + Pool.plaintext(keyId)))
                .POST(HttpRequest.BodyPublishers.ofString("{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}"))
                .header("content-type", "application/json")
                .build());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-length")).isEmpty();
        assertThat(response.body()).contains("finishReason");
        MockUpstream.Hit hit = upstream.hits(a).get(0);
        assertThat(hit.path()).isEqualTo("/v1beta/models/gemini-2.5-pro:streamGenerateContent");
        assertThat(hit.headers().get("x-goog-api-key")).isEqualTo(Pool.secretOf(a));
        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.inputTokens()).isEqualTo(3L);
        assertThat(record.outputTokens()).isEqualTo(2L);
    }

    @Test
    void aClientLeavingMidStreamStillSettlesItsUsage() throws Exception {
        // the first chunk carries the usage so far (as relays that report usage per chunk do); then
        // the upstream goes quiet and the client leaves
        upstream.on(a, (request, body, n) -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response()
                    .write(CHAT_FRAMES.get(0)
                            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}\n\n");
        });
        pool(Pool.credential(a).serves("m"), Pool.credential(b).serves("m"));

        HttpRequest request = request("/v1/chat/completions", keyId)
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        InputStream body = response.body();
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        assertThat(reader.readLine()).contains("\"a\"");
        body.close();

        RequestCompleted record = usage(a, list -> !list.isEmpty()).get(0);
        assertThat(record.clientDisconnected()).isTrue();
        assertThat(record.success()).isFalse();
        assertThat(record.status()).isEqualTo(200);
        assertThat(record.inputTokens())
                .as("the half-delivered response's usage counts")
                .isEqualTo(5L);
        assertThat(record.outputTokens()).isEqualTo(1L);
        await().untilAsserted(() -> assertThat(upstream.count(a)).isEqualTo(1));
    }
}
