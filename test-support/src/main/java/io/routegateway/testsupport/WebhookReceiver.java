package io.routegateway.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A webhook receiver on 127.0.0.1: records every request (path, the route headers, body, the status
 * it answered) and answers 200, or 500 for as many requests to a path as {@link #failFirst} asked.
 * state-service's delivery tests and the end-to-end tests (two state-service replicas) share it.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** One request received. */
    public record Received(
            String path,
            String deliveryId,
            String timestamp,
            String signature,
            String event,
            byte[] body,
            int answered) {

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

    public WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    /** The URL of {@code path} on this receiver. */
    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The next {@code times} requests to {@code path} are answered 500. */
    public void failFirst(String path, int times) {
        failures.put(path, new AtomicInteger(times));
    }

    public List<Received> received(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        String path = exchange.getRequestURI().getPath();
        AtomicInteger left = failures.get(path);
        int status = left != null && left.getAndDecrement() > 0 ? 500 : 200;
        received.add(new Received(
                path,
                exchange.getRequestHeaders().getFirst("X-Route-Delivery-Id"),
                exchange.getRequestHeaders().getFirst("X-Route-Timestamp"),
                exchange.getRequestHeaders().getFirst("X-Route-Signature"),
                exchange.getRequestHeaders().getFirst("X-Route-Event"),
                body,
                status));
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
