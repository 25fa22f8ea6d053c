package io.routegateway.common.upstream;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.StreamCompletion;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.upstream.UpstreamRequest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The shared upstream client against a real local HTTP server playing the upstream. */
class UpstreamClientTests {

    private static final UpstreamTimeouts TIMEOUTS =
            UpstreamTimeouts.of(Duration.ofSeconds(5), Duration.ofMillis(300), "test.upstream");

    /** For tests whose upstream pauses on purpose: no read gap can fire on a loaded machine. */
    private static final UpstreamTimeouts UNHURRIED =
            UpstreamTimeouts.of(Duration.ofSeconds(5), Duration.ofSeconds(20), "test.upstream");

    private static Vertx vertx;
    private static HttpServer server;
    private static final AtomicReference<Consumer<HttpServerRequest>> behaviour = new AtomicReference<>();
    private static final List<String> receivedAuth = new ArrayList<>();
    private static UpstreamClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(request -> {
                    synchronized (receivedAuth) {
                        receivedAuth.add(request.getHeader("authorization"));
                    }
                    behaviour.get().accept(request);
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        client = new UpstreamClient(vertx);
    }

    @AfterAll
    static void stop() {
        client.close();
        vertx.close();
    }

    @Test
    void bufferedSuccessIsReadWholeAndClassifiedSuccess() {
        behaviour.set(request -> request.response()
                .putHeader("content-type", "application/json")
                .end("{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}"));

        UpstreamResponse.Complete response = exchange(request(false));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body().toString()).contains("\"hi\"");
        assertThat(apiVerdict(response)).isEqualTo(Verdict.SUCCESS);
        assertThat(receivedAuth).contains("Bearer upstream-secret");
    }

    @Test
    void theUpstreamIsAskedForTheExactPathEncodingAndQueryOfTheUrl() {
        AtomicReference<String> asked = new AtomicReference<>();
        behaviour.set(request -> {
            asked.set(request.uri() + " host=" + request.getHeader("host"));
            request.response().putHeader("content-type", "application/json").end("{}");
        });
        String base = "http://127.0.0.1:" + server.actualPort();

        exchange(new UpstreamRequest(
                "POST",
                base + "/v1beta/models/a%2Fb:streamGenerateContent?alt=sse&x=%20y#fragment",
                List.of(),
                body(),
                false,
                "m"));
        assertThat(asked.get())
                .isEqualTo("/v1beta/models/a%2Fb:streamGenerateContent?alt=sse&x=%20y host=127.0.0.1:"
                        + server.actualPort());

        exchange(new UpstreamRequest("POST", base + "?only=query", List.of(), body(), false, "m"));
        assertThat(asked.get()).as("no path is the root").startsWith("/?only=query ");
    }

    @Test
    void status429IsATransientStatusFailureWithItsBodyKept() {
        behaviour.set(request -> request.response().setStatusCode(429).end("{\"error\":{\"message\":\"slow down\"}}"));

        UpstreamResponse.Complete response = exchange(request(false));

        assertThat(apiVerdict(response)).isInstanceOfSatisfying(Verdict.Transient.class, failure -> {
            assertThat(failure.kind()).isEqualTo(FailureKind.UPSTREAM_STATUS);
            assertThat(failure.status()).isEqualTo(429);
            assertThat(failure.body()).contains("slow down");
            assertThat(failure.retrySameCredential()).isTrue();
        });
    }

    @Test
    void anOfficialAccountsVerdictReadsItsPlatformsUsageLimitHeaders() {
        Instant now = Instant.parse("2026-12-01T20:00:00Z");
        Instant reset = now.plusSeconds(3600);
        behaviour.set(request -> request.response()
                .setStatusCode(429)
                .putHeader("X-Codex-Primary-Used-Percent", "100")
                .putHeader("X-Codex-Primary-Reset-At", String.valueOf(reset.getEpochSecond()))
                .putHeader("X-Codex-Primary-Window-Minutes", "300")
                .end("{\"error\":{\"message\":\"slow down\"}}"));

        UpstreamResponse.Complete response = exchange(request(false));

        assertThat(response.verdict(CredentialKind.OFFICIAL, Platform.CODEX, now))
                .isInstanceOfSatisfying(Verdict.QuotaExhausted.class, quota -> {
                    assertThat(quota.resetsAt()).isEqualTo(reset);
                    assertThat(quota.limitWindow()).isEqualTo("5h");
                });
        assertThat(response.verdict(CredentialKind.API, Platform.CODEX, now)).isInstanceOf(Verdict.Transient.class);
    }

    @Test
    void anAnswerPastTheSizeCapIsNoEvidenceForAnyCredential() {
        behaviour.set(request -> request.response()
                .setStatusCode(429)
                .putHeader("x-codex-primary-used-percent", "100")
                .putHeader("x-codex-primary-reset-after-seconds", "3600")
                .end("{\"error\":{\"message\":\"" + "x".repeat(4096) + "\"}}"));

        UpstreamResponse.Complete response =
                client.exchange(request(false), TIMEOUTS, false, 1024).await().atMost(Duration.ofSeconds(10));

        assertThat(response.oversize()).isTrue();
        assertThat(response.verdict(CredentialKind.OFFICIAL, Platform.CODEX, Instant.parse("2026-12-01T20:00:00Z")))
                .isEqualTo(new Verdict.NotAFailure(429));
    }

    @Test
    void modelTestLabelsAStatusFailureModelTestStatus() {
        behaviour.set(request -> request.response().setStatusCode(503).end());

        UpstreamResponse.Complete response =
                client.exchange(request(false), TIMEOUTS, true).await().atMost(Duration.ofSeconds(10));

        assertThat(apiVerdict(response))
                .isInstanceOfSatisfying(
                        Verdict.Transient.class,
                        failure -> assertThat(failure.kind()).isEqualTo(FailureKind.MODEL_TEST_STATUS));
    }

    @Test
    void refusedConnectionIsATransportFailureWithoutStatus() throws Exception {
        int closedPort = closedPort();
        UpstreamRequest request = new UpstreamRequest(
                "POST", "http://127.0.0.1:" + closedPort + "/v1/chat/completions", List.of(), body(), false, "m");

        UpstreamResponse.Complete response = exchange(request);

        assertThat(response.status()).isNull();
        assertThat(response.transportError()).startsWith("connection failed");
        assertThat(apiVerdict(response))
                .isInstanceOfSatisfying(
                        Verdict.Transient.class,
                        failure -> assertThat(failure.kind()).isEqualTo(FailureKind.TRANSPORT));
    }

    @Test
    void stalledUpstreamFiresTheReadGapTimeoutAndNamesItsSetting() {
        behaviour.set(request -> {
            // accept the request, then say nothing
        });

        UpstreamResponse.Complete response = exchange(request(false));

        assertThat(response.status()).isNull();
        assertThat(response.transportError()).contains("read timeout").contains("test.upstream.read-gap-timeout=300ms");
        assertThat(apiVerdict(response)).isInstanceOf(Verdict.Transient.class);
    }

    @Test
    void aBodyThatStallsAfterTheHeadIsATransportFailureWithItsStatus() {
        behaviour.set(request -> request.response()
                .setChunked(true)
                .putHeader("content-type", "application/json")
                .write("{\"choi"));

        UpstreamResponse.Complete response = exchange(request(false));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.transportError()).contains("read timeout");
        assertThat(apiVerdict(response))
                .isInstanceOfSatisfying(
                        Verdict.Transient.class,
                        failure -> assertThat(failure.kind()).isEqualTo(FailureKind.TRANSPORT));
    }

    @Test
    void streamGivesTheFirstChunkThenTheRestAndEndsWithItsMarker() throws Exception {
        behaviour.set(request -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
            vertx.setTimer(
                    50,
                    id -> request.response()
                            .write("data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n")
                            .compose(v -> request.response().end("data: [DONE]\n\n")));
        });

        UpstreamResponse response = open(request(true));

        assertThat(response).isInstanceOf(UpstreamResponse.Streaming.class);
        UpstreamStream stream = ((UpstreamResponse.Streaming) response).stream();
        assertThat(stream.firstChunkText()).contains("\"a\"");
        StringBuilder rest = new StringBuilder();
        CompletableFuture<UpstreamOutcome> end = new CompletableFuture<>();
        vertx.runOnContext(
                v -> stream.start(chunk -> rest.append(chunk.toString(StandardCharsets.UTF_8)), end::complete));
        UpstreamOutcome outcome = end.get(10, TimeUnit.SECONDS);

        assertThat(rest.toString()).contains("\"b\"").contains("[DONE]");
        assertThat(outcome.terminalMarkerSeen()).isTrue();
        assertThat(outcome.transportError()).isNull();
    }

    @Test
    void streamCutAfterTheFirstChunkEndsWithoutMarkerAsTruncation() throws Exception {
        behaviour.set(request -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
            vertx.setTimer(50, id -> request.connection().close());
        });

        UpstreamStream stream = ((UpstreamResponse.Streaming) open(request(true))).stream();
        CompletableFuture<UpstreamOutcome> end = new CompletableFuture<>();
        vertx.runOnContext(v -> stream.start(chunk -> {}, end::complete));
        UpstreamOutcome outcome = end.get(10, TimeUnit.SECONDS);

        assertThat(outcome.terminalMarkerSeen()).isFalse();
        assertThat(outcome.body()).contains("\"a\"");
        assertThat(io.routegateway.core.failure.OutcomeClassifier.classify(outcome))
                .isInstanceOfSatisfying(Verdict.Transient.class, failure -> {
                    assertThat(failure.kind()).isEqualTo(FailureKind.SEMANTIC_RESPONSE_TRANSIENT);
                    assertThat(failure.message()).isEqualTo(StreamCompletion.DISCONNECTED_MESSAGE);
                });
    }

    @Test
    void streamThatStallsBetweenChunksEndsWithTheReadGapTimeout() throws Exception {
        behaviour.set(request -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n");
        });

        UpstreamStream stream = ((UpstreamResponse.Streaming) open(request(true))).stream();
        CompletableFuture<UpstreamOutcome> end = new CompletableFuture<>();
        vertx.runOnContext(v -> stream.start(chunk -> {}, end::complete));
        UpstreamOutcome outcome = end.get(10, TimeUnit.SECONDS);

        assertThat(outcome.transportError()).contains("test.upstream.read-gap-timeout=300ms");
        assertThat(outcome.terminalMarkerSeen()).isFalse();
    }

    @Test
    void empty200InStreamingModeIsCompleteAndASemanticFailure() {
        behaviour.set(request -> request.response()
                .putHeader("content-type", "text/event-stream")
                .end());

        UpstreamResponse response = open(request(true));

        assertThat(response)
                .isInstanceOfSatisfying(
                        UpstreamResponse.Complete.class,
                        complete -> assertThat(apiVerdict(complete))
                                .isInstanceOfSatisfying(
                                        Verdict.Transient.class,
                                        failure -> assertThat(failure.kind())
                                                .isEqualTo(FailureKind.SEMANTIC_RESPONSE_TRANSIENT)));
    }

    @Test
    void connectionDeathBeforeTheFirstChunkIsATransportFailure() {
        behaviour.set(request -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().writeHead();
            vertx.setTimer(50, id -> request.connection().close());
        });

        UpstreamResponse response = open(request(true));

        assertThat(response)
                .isInstanceOfSatisfying(
                        UpstreamResponse.Complete.class,
                        complete -> assertThat(apiVerdict(complete))
                                .isInstanceOfSatisfying(
                                        Verdict.Transient.class,
                                        failure -> assertThat(failure.kind()).isEqualTo(FailureKind.TRANSPORT)));
    }

    @Test
    void keepAliveCommentsBeforeTheFirstDataDoNotEndTheFailoverWindow() {
        // a relay's comments while the upstream thinks, then the upstream's error envelope: the
        // error must arrive inside the window (judged before anything reaches the client)
        behaviour.set(request -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write(": OPENROUTER PROCESSING\n\n");
            vertx.setTimer(
                    50,
                    id -> request.response()
                            .write(": keep-alive\n\n")
                            .compose(v -> request.response()
                                    .write("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"
                                            + "\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")));
        });

        // a read gap far above the 50 ms pause: what is tested is the window, not the gap
        UpstreamResponse response =
                client.open(request(true), UNHURRIED).await().atMost(Duration.ofSeconds(30));
        assertThat(response).isInstanceOf(UpstreamResponse.Streaming.class);
        UpstreamStream stream = ((UpstreamResponse.Streaming) response).stream();

        assertThat(stream.firstChunkText())
                .as("held comments lead the first data chunk, nothing is lost")
                .startsWith(": OPENROUTER PROCESSING\n\n: keep-alive\n\n")
                .contains("Overloaded");
        assertThat(io.routegateway.core.failure.SemanticFailureDetector.firstChunkIsFailure(stream.firstChunkText()))
                .isTrue();
        vertx.runOnContext(v -> stream.cancel());
    }

    @Test
    void aStreamOfCommentsOnlyThatDiesIsATransportFailureBeforeTheFirstChunk() {
        behaviour.set(request -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write(": keep-alive\n\n");
            vertx.setTimer(50, id -> request.connection().close());
        });

        UpstreamResponse response = open(request(true));

        assertThat(response)
                .isInstanceOfSatisfying(
                        UpstreamResponse.Complete.class,
                        complete -> assertThat(apiVerdict(complete))
                                .isInstanceOfSatisfying(
                                        Verdict.Transient.class,
                                        failure -> assertThat(failure.kind()).isEqualTo(FailureKind.TRANSPORT)));
    }

    @Test
    void non2xxInStreamingModeIsReadWhole() {
        behaviour.set(request -> request.response().setStatusCode(400).end("{\"error\":{\"message\":\"bad\"}}"));

        UpstreamResponse response = open(request(true));

        assertThat(response).isInstanceOfSatisfying(UpstreamResponse.Complete.class, complete -> {
            assertThat(complete.status()).isEqualTo(400);
            assertThat(apiVerdict(complete)).isEqualTo(new Verdict.NotAFailure(400));
            assertThat(complete.body().toString()).contains("bad");
        });
    }

    @Test
    void keptTextKeepsHeadAndFrameAlignedTail() {
        KeptText kept = new KeptText();
        kept.append("data: head\n\n");
        String filler = "data: " + "x".repeat(1000) + "\n\n";
        for (int i = 0; i < 200; i++) {
            kept.append(filler);
        }
        kept.append("data: [DONE]\n\n");

        String text = kept.text();

        assertThat(text).startsWith("data: head").endsWith("data: [DONE]\n\n");
        assertThat(text.length()).isLessThan(KeptText.HEAD_LIMIT + KeptText.TAIL_LIMIT + 10);
    }

    private static UpstreamResponse.Complete exchange(UpstreamRequest request) {
        return client.exchange(request, TIMEOUTS, false).await().atMost(Duration.ofSeconds(10));
    }

    private static UpstreamResponse open(UpstreamRequest request) {
        return client.open(request, TIMEOUTS).await().atMost(Duration.ofSeconds(10));
    }

    private static UpstreamRequest request(boolean stream) {
        return new UpstreamRequest(
                "POST",
                "http://127.0.0.1:" + server.actualPort() + "/v1/chat/completions",
                List.of(Map.entry("authorization", "Bearer upstream-secret")),
                body(),
                stream,
                "m");
    }

    private static byte[] body() {
        return "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8);
    }

    private static int closedPort() throws Exception {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** An api key's verdict: the answer classified, no usage-limit signal read. */
    private static Verdict apiVerdict(UpstreamResponse.Complete response) {
        return response.verdict(CredentialKind.API, Platform.OPENAI, Instant.parse("2026-12-01T20:00:00Z"));
    }
}
