package io.routegateway.state.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Stands in for recovery-service's {@code POST /recovery/v1/credentials/{id}/test}: what it answers
 * is set per credential id, and every request body it received is kept.
 */
public final class RecoveryStandIn {

    /** How the stand-in answers for one credential id. */
    public enum Answer {
        PASS,
        UNKNOWN_CREDENTIAL,
        UNMAPPED_MODEL,
        SERVER_ERROR,
        /** 401, as recovery-service answers a caller whose internal token it does not share. */
        TOKEN_REFUSED,
        STALL
    }

    public static final Map<String, Answer> ANSWERS = new ConcurrentHashMap<>();
    public static final List<String> RECEIVED = new CopyOnWriteArrayList<>();
    /** credential id -> the Authorization header of the call for it. */
    public static final Map<String, String> AUTHORIZATION = new ConcurrentHashMap<>();

    private static final String PREFIX = "/recovery/v1/credentials/";
    private static HttpServer server;

    private RecoveryStandIn() {}

    public static synchronized String url() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            server.setExecutor(Executors.newCachedThreadPool(task -> {
                Thread thread = new Thread(task, "recovery-stand-in");
                thread.setDaemon(true);
                return thread;
            }));
            server.createContext(PREFIX, RecoveryStandIn::handle);
            server.start();
        }
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String id = path.substring(PREFIX.length(), path.length() - "/test".length());
        try (InputStream in = exchange.getRequestBody()) {
            RECEIVED.add(id + " " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        AUTHORIZATION.put(id, authorization == null ? "(none)" : authorization);
        Answer answer = ANSWERS.getOrDefault(id, Answer.UNKNOWN_CREDENTIAL);
        switch (answer) {
            case PASS:
                respond(
                        exchange,
                        200,
                        "{\"success\":true,\"status\":200,\"latency_ms\":12,\"kind\":null,"
                                + "\"message\":null,\"model\":\"gpt-5.6-sol\"}");
                break;
            case UNMAPPED_MODEL:
                respond(
                        exchange,
                        400,
                        "{\"error\":{\"code\":\"validation.model\",\"message\":\"the credential does not map x\"}}");
                break;
            case TOKEN_REFUSED:
                respond(
                        exchange,
                        401,
                        "{\"error\":{\"code\":\"unauthorized\",\"message\":\"the internal token is not valid\"}}");
                break;
            case SERVER_ERROR:
                respond(exchange, 500, "{\"error\":{\"code\":\"internal\",\"message\":\"boom\"}}");
                break;
            case STALL:
                try {
                    Thread.sleep(120_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                respond(exchange, 200, "{\"success\":true}");
                break;
            default:
                respond(
                        exchange,
                        404,
                        "{\"error\":{\"code\":\"not_found\",\"message\":\"unknown credential " + id + "\"}}");
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
