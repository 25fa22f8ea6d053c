package io.routegateway.gateway.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * The simulated LLM upstream: one real HTTP server whose behaviour is scripted per credential. A
 * credential's base URL is {@code http://127.0.0.1:<port>/<tag>}, so every request tells which
 * credential sent it; each request is recorded as a {@link Hit}.
 */
public final class MockUpstream {

    private static MockUpstream shared;

    private final Vertx vertx;
    private final HttpServer server;
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();
    private final List<Hit> hits = new CopyOnWriteArrayList<>();

    /** What the upstream does with one request. */
    @FunctionalInterface
    public interface Behaviour {
        /**
         * @param number 1 for the first request to this tag, 2 for the second, …
         */
        void handle(HttpServerRequest request, String body, int number);
    }

    /** One request as the upstream received it. */
    public record Hit(String tag, String path, Map<String, String> headers, String body, long atNanos) {

        public String model() {
            try {
                return new JsonObject(body).getString("model");
            } catch (RuntimeException e) {
                return null;
            }
        }
    }

    private MockUpstream() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(this::handle)
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    /** The one mock of the test JVM. */
    public static synchronized MockUpstream get() {
        if (shared == null) {
            try {
                shared = new MockUpstream();
            } catch (Exception e) {
                throw new IllegalStateException("mock upstream did not start", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(shared.vertx::close));
        }
        return shared;
    }

    public Vertx vertx() {
        return vertx;
    }

    public String baseUrl(String tag) {
        return "http://127.0.0.1:" + server.actualPort() + "/" + tag;
    }

    public MockUpstream on(String tag, Behaviour behaviour) {
        behaviours.put(tag, behaviour);
        return this;
    }

    public List<Hit> hits(String tag) {
        List<Hit> mine = new ArrayList<>();
        for (Hit hit : hits) {
            if (hit.tag().equals(tag)) {
                mine.add(hit);
            }
        }
        return mine;
    }

    public int count(String tag) {
        return hits(tag).size();
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        int slash = path.indexOf('/', 1);
        String tag = slash < 0 ? path.substring(1) : path.substring(1, slash);
        request.body().onSuccess(buffer -> {
            String body = buffer.toString(StandardCharsets.UTF_8);
            Map<String, String> headers = new ConcurrentHashMap<>();
            request.headers().forEach(entry -> headers.put(entry.getKey().toLowerCase(), entry.getValue()));
            hits.add(new Hit(tag, slash < 0 ? "/" : path.substring(slash), headers, body, System.nanoTime()));
            int number = counters.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
            Behaviour behaviour = behaviours.get(tag);
            if (behaviour == null) {
                request.response().setStatusCode(599).end("no behaviour for " + tag);
                return;
            }
            behaviour.handle(request, body, number);
        });
    }

    // ---- canned behaviours ---------------------------------------------------------------------

    public static final String CHAT_OK =
            "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                    + "\"content\":\"hello\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":11,"
                    + "\"completion_tokens\":7,\"total_tokens\":18}}";

    public static Behaviour json(int status, String body) {
        return (request, ignored, number) -> request.response()
                .setStatusCode(status)
                .putHeader("content-type", "application/json")
                .end(body);
    }

    public static Behaviour ok() {
        return json(200, CHAT_OK);
    }

    /** Answers SSE frames one by one; {@code cutAfter} frames then drops the connection (-1: all, then end). */
    public static Behaviour sse(List<String> frames, int cutAfter, long gapMillis) {
        return (request, ignored, number) -> {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().writeHead();
            writeFrames(request, frames, 0, cutAfter, gapMillis);
        };
    }

    private static void writeFrames(HttpServerRequest request, List<String> frames, int index, int cutAfter, long gap) {
        if (cutAfter >= 0 && index >= cutAfter) {
            request.connection().close();
            return;
        }
        if (index >= frames.size()) {
            request.response().end();
            return;
        }
        request.response().write(frames.get(index));
        Vertx.currentContext()
                .owner()
                .setTimer(Math.max(1, gap), id -> writeFrames(request, frames, index + 1, cutAfter, gap));
    }

    /** Accepts the request and never answers. */
    public static Behaviour stall() {
        return (request, ignored, number) -> {};
    }

    /** Different behaviours for successive requests; the last one repeats. */
    public static Behaviour sequence(Behaviour... steps) {
        return (request, body, number) -> steps[Math.min(number, steps.length) - 1].handle(request, body, number);
    }
}
