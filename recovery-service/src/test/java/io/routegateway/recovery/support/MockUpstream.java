package io.routegateway.recovery.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;

/**
 * The simulated LLM upstream: a real HTTP server on a free loopback port that answers every
 * request with the reply a test set, and records what it received.
 */
public final class MockUpstream implements AutoCloseable {

    /**
     * One received request.
     *
     * @param chatgptAccountId the {@code chatgpt-account-id} header (Codex official accounts), null when absent
     */
    public record Received(
            String method, String path, String authorization, String apiKey, String chatgptAccountId, String body) {}

    private record Reply(int status, String body, Map<String, String> headers) {}

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Reply reply = new Reply(200, "{}", Map.of());

    private MockUpstream(HttpServer server) {
        this.server = server;
    }

    public static MockUpstream start(Vertx vertx) {
        MockUpstream[] holder = new MockUpstream[1];
        HttpServer server = vertx.createHttpServer()
                .requestHandler(request -> request.body().onSuccess(body -> {
                    MockUpstream upstream = holder[0];
                    upstream.received.add(new Received(
                            request.method().name(),
                            request.path(),
                            request.getHeader("authorization"),
                            request.getHeader("x-api-key"),
                            request.getHeader("chatgpt-account-id"),
                            body.toString()));
                    Reply current = upstream.reply;
                    request.response().setStatusCode(current.status()).putHeader("content-type", "application/json");
                    current.headers().forEach(request.response()::putHeader);
                    request.response().end(current.body());
                }));
        holder[0] = new MockUpstream(server);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().join();
        return holder[0];
    }

    /** A base URL that serves OpenAI-style paths ({@code /v1/chat/completions}). */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    /** Every following request gets this status and JSON body. */
    public void reply(int status, String body) {
        reply(status, body, Map.of());
    }

    /** Every following request gets this status, JSON body and these extra response headers. */
    public void reply(int status, String body, Map<String, String> headers) {
        reply = new Reply(status, body, Map.copyOf(headers));
    }

    /** A normal chat completion. */
    public void replySuccess() {
        reply(
                200,
                "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":\"pong\"},\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}");
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public void clear() {
        received.clear();
    }

    @Override
    public void close() {
        server.close().toCompletionStage().toCompletableFuture().join();
    }
}
