package io.routegateway.demo;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Behaviour.Mode;
import io.routegateway.demo.Replies.Protocol;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * A small LLM upstream for the local run, end-to-end tests and the benchmark. Each account is an
 * API key; its {@link Behaviour} is switched at run time:
 *
 * <pre>
 * PUT    /_control/accounts/{key}   {"mode":"status","status":429,"model":"upstream-sol"}
 * PUT    /_control/accounts/{key}   {"mode":"echo","status":400}   vendor-style errors quoting the request
 * DELETE /_control/accounts/{key}   back to healthy
 * GET    /_control/accounts         behaviours and request counts per account and model
 * </pre>
 *
 * Speaks OpenAI Chat Completions and Responses, Anthropic Messages and Gemini, buffered and SSE. A
 * healthy account plays an agent's turn ({@link ToolCalls}): offered tools, it calls the first one
 * (arguments from the tool's schema); given the tool's result, it answers with a final text.
 * Any key is accepted as a healthy account unless it starts with {@code invalid}.
 */
public final class DemoUpstream {

    static final String CONTROL = "/_control/accounts";
    /**
     * Reads requests as the vendors do: a large inline attachment (one string over Jackson's default
     * 20,000,000 characters) is a valid request.
     */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .build());

    private final Vertx vertx;
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private HttpServer server;

    public DemoUpstream(Vertx vertx) {
        this.vertx = vertx;
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 9300;
        Vertx vertx = Vertx.vertx();
        new DemoUpstream(vertx)
                .start(port)
                .onSuccess(actual -> System.out.println("demo upstream listening on http://127.0.0.1:" + actual))
                .onFailure(error -> {
                    System.err.println("demo upstream failed to start: " + error.getMessage());
                    System.exit(1);
                });
    }

    /** Starts on {@code port} (0 = any free port); completes with the bound port. */
    public Future<Integer> start(int port) {
        return vertx.createHttpServer(
                        new HttpServerOptions().setHost("127.0.0.1").setPort(port))
                .requestHandler(this::handle)
                .listen()
                .map(bound -> {
                    server = bound;
                    return bound.actualPort();
                });
    }

    public Future<Void> stop() {
        return server == null ? Future.succeededFuture() : server.close();
    }

    public void setBehaviour(String account, Behaviour behaviour) {
        behaviours.put(account, behaviour);
    }

    public void reset(String account) {
        behaviours.remove(account);
    }

    /** Requests seen for (account, upstream model). */
    public long requestCount(String account, String model) {
        LongAdder adder = requests.get(account + "|" + model);
        return adder == null ? 0 : adder.sum();
    }

    /** Requests seen for an account, every model together. */
    public long requestCount(String account) {
        long total = 0;
        for (Map.Entry<String, LongAdder> entry : requests.entrySet()) {
            if (entry.getKey().startsWith(account + "|")) {
                total += entry.getValue().sum();
            }
        }
        return total;
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        if (path.startsWith(CONTROL)) {
            request.body().onSuccess(body -> control(request, path, body));
            return;
        }
        if (path.equals("/v1/models") || path.equals("/v1beta/models")) {
            json(
                    request.response(),
                    200,
                    "{\"object\":\"list\",\"data\":[{\"id\":\"demo-model\",\"object\":\"model\"}]}");
            return;
        }
        Protocol protocol = protocolOf(path);
        if (protocol == null) {
            json(
                    request.response(),
                    404,
                    "{\"error\":{\"message\":\"no such path " + path + "\",\"type\":\"invalid_request_error\"}}");
            return;
        }
        request.body().onSuccess(body -> generate(request, protocol, body));
    }

    private void generate(HttpServerRequest request, Protocol protocol, Buffer body) {
        String account = account(request);
        HttpServerResponse response = request.response();
        if (account == null || account.startsWith("invalid")) {
            json(response, 401, Replies.statusError(401));
            return;
        }
        JsonNode parsed;
        try {
            parsed = body.length() == 0 ? JSON.createObjectNode() : JSON.readTree(body.getBytes());
        } catch (IOException e) {
            json(response, 400, "{\"error\":{\"message\":\"malformed JSON\",\"type\":\"invalid_request_error\"}}");
            return;
        }
        String model = protocol == Protocol.GEMINI
                ? geminiModel(request.path())
                : parsed.path("model").asText("demo-model");
        boolean stream = protocol == Protocol.GEMINI
                ? request.path().endsWith(":streamGenerateContent")
                : parsed.path("stream").asBoolean(false);
        requests.computeIfAbsent(account + "|" + model, key -> new LongAdder()).increment();
        Behaviour behaviour = behaviours.getOrDefault(account, Behaviour.HEALTHY);
        if (!behaviour.appliesTo(model)) {
            behaviour = Behaviour.HEALTHY;
        }
        Behaviour chosen = behaviour;
        if (chosen.delayMs() > 0) {
            vertx.setTimer(chosen.delayMs(), id -> respond(response, protocol, model, stream, chosen, account, parsed));
        } else {
            respond(response, protocol, model, stream, chosen, account, parsed);
        }
    }

    private void respond(
            HttpServerResponse response,
            Protocol protocol,
            String model,
            boolean stream,
            Behaviour behaviour,
            String account,
            JsonNode request) {
        String text = "Hello from demo account " + shortName(account) + " via " + model;
        switch (behaviour.mode()) {
            case STATUS:
                json(response, behaviour.status(), Replies.statusError(behaviour.status()));
                return;
            case ERROR_BODY:
                json(response, 200, Replies.errorBody(behaviour.message()));
                return;
            case QUOTA:
                json(response, 200, Replies.quotaBody());
                return;
            case ECHO:
                json(response, behaviour.status(), Echoes.error(protocol, behaviour.status(), model, request));
                return;
            case STALL:
                // hold the connection open and send nothing: the caller's read-gap timeout decides
                return;
            case STREAM_CUT:
                if (!stream) {
                    response.setStatusCode(200)
                            .putHeader("content-type", "application/json")
                            .setChunked(true);
                    response.write(Replies.answer(protocol, model, text).substring(0, 20));
                    response.reset();
                    return;
                }
                List<String> frames = Replies.stream(protocol, model, text);
                sse(response);
                for (int i = 0; i < Math.min(behaviour.cutAfterFrames(), frames.size() - 1); i++) {
                    response.write(frames.get(i));
                }
                // cut without the terminal event
                vertx.setTimer(5, id -> response.reset());
                return;
            default:
                ToolCalls.Call call = ToolCalls.callFor(protocol, request);
                if (call != null) {
                    if (stream) {
                        sse(response);
                        for (String frame : ToolCalls.stream(protocol, model, call)) {
                            response.write(frame);
                        }
                        response.end();
                    } else {
                        json(response, 200, ToolCalls.answer(protocol, model, call));
                    }
                    return;
                }
                if (ToolCalls.endsWithToolResult(protocol, request)) {
                    text = ToolCalls.afterResult(text);
                }
                if (stream) {
                    sse(response);
                    for (String frame : Replies.stream(protocol, model, text)) {
                        response.write(frame);
                    }
                    response.end();
                } else {
                    json(response, 200, Replies.answer(protocol, model, text));
                }
        }
    }

    private void control(HttpServerRequest request, String path, Buffer body) {
        HttpServerResponse response = request.response();
        String account = path.length() > CONTROL.length() + 1 ? path.substring(CONTROL.length() + 1) : null;
        try {
            switch (request.method().name()) {
                case "GET":
                    json(response, 200, JSON.writeValueAsString(describe()));
                    return;
                case "DELETE":
                    if (account != null) {
                        reset(account);
                    } else {
                        behaviours.clear();
                    }
                    json(response, 200, JSON.writeValueAsString(describe()));
                    return;
                case "PUT":
                case "POST":
                    if (account == null) {
                        json(response, 400, "{\"error\":{\"message\":\"name the account: " + CONTROL + "/{key}\"}}");
                        return;
                    }
                    JsonNode spec = JSON.readTree(body.length() == 0 ? "{}".getBytes() : body.getBytes());
                    Behaviour behaviour = new Behaviour(
                            Mode.parse(spec.path("mode").asText("healthy")),
                            spec.path("status").asInt(429),
                            spec.hasNonNull("model") ? spec.get("model").asText() : null,
                            spec.path("delay_ms").asLong(0),
                            spec.path("cut_after_frames").asInt(2),
                            spec.hasNonNull("message") ? spec.get("message").asText() : null);
                    setBehaviour(account, behaviour);
                    json(response, 200, JSON.writeValueAsString(describe()));
                    return;
                default:
                    json(response, 405, "{\"error\":{\"message\":\"method not allowed\"}}");
            }
        } catch (IOException | IllegalArgumentException e) {
            json(
                    response,
                    400,
                    "{\"error\":{\"message\":\"bad control request: "
                            + e.getMessage().replace('"', '\'') + "\"}}");
        }
    }

    private ObjectNode describe() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode accounts = root.putObject("accounts");
        behaviours.forEach((account, behaviour) -> accounts.putObject(account)
                .put("mode", behaviour.mode().name().toLowerCase())
                .put("status", behaviour.status())
                .put("model", behaviour.model())
                .put("delay_ms", behaviour.delayMs())
                .put("cut_after_frames", behaviour.cutAfterFrames()));
        ObjectNode counts = root.putObject("requests");
        new TreeMap<>(requests).forEach((key, adder) -> counts.put(key, adder.sum()));
        return root;
    }

    static Protocol protocolOf(String path) {
        if (path.endsWith("/chat/completions")) {
            return Protocol.OPENAI_CHAT;
        }
        if (path.endsWith("/responses")) {
            return Protocol.OPENAI_RESPONSES;
        }
        if (path.endsWith("/messages")) {
            return Protocol.ANTHROPIC;
        }
        if (path.contains("/models/")
                && (path.endsWith(":generateContent") || path.endsWith(":streamGenerateContent"))) {
            return Protocol.GEMINI;
        }
        return null;
    }

    static String geminiModel(String path) {
        String tail = path.substring(path.indexOf("/models/") + "/models/".length());
        return tail.substring(0, tail.indexOf(':'));
    }

    static String account(HttpServerRequest request) {
        String authorization = request.getHeader("authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return authorization.substring(7).trim();
        }
        String key = request.getHeader("x-api-key");
        if (key == null) {
            key = request.getHeader("x-goog-api-key");
        }
        if (key == null) {
            key = request.getParam("key");
        }
        return key;
    }

    private static String shortName(String account) {
        return account.length() > 16 ? account.substring(0, 16) : account;
    }

    private static void sse(HttpServerResponse response) {
        response.setStatusCode(200)
                .putHeader("content-type", "text/event-stream")
                .putHeader("cache-control", "no-cache")
                .setChunked(true);
    }

    private static void json(HttpServerResponse response, int status, String body) {
        response.setStatusCode(status)
                .putHeader("content-type", "application/json")
                .end(body);
    }
}
