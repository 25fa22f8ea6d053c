package io.routegateway.e2e.support;

import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A team's client of one gateway replica: OpenAI Chat Completions, buffered or streamed. */
public final class GatewayClient {

    private final String baseUrl;

    public GatewayClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** A buffered chat completion. */
    public Http.Response chat(String accessKey, String model) {
        return Http.send(
                "POST", baseUrl + "/v1/chat/completions", auth(accessKey), body(model, false), Duration.ofSeconds(60));
    }

    /** A buffered chat completion with extra request headers (a {@code traceparent}, say). */
    public Http.Response chat(String accessKey, String model, Map<String, String> headers) {
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.putAll(auth(accessKey));
        return Http.send("POST", baseUrl + "/v1/chat/completions", all, body(model, false), Duration.ofSeconds(60));
    }

    /** A streamed chat completion; the whole event stream as the body. */
    public Http.Response chatStream(String accessKey, String model) {
        return Http.send(
                "POST", baseUrl + "/v1/chat/completions", auth(accessKey), body(model, true), Duration.ofSeconds(60));
    }

    /** {@code GET /v1/models} with the key. */
    public Http.Response models(String accessKey) {
        return Http.send("GET", baseUrl + "/v1/models", auth(accessKey), null, Duration.ofSeconds(10));
    }

    private static Map<String, String> auth(String accessKey) {
        return Map.of("authorization", "Bearer " + accessKey);
    }

    private static ObjectNode body(String model, boolean stream) {
        ObjectNode body = Http.JSON.createObjectNode().put("model", model).put("stream", stream);
        body.putArray("messages").addObject().put("role", "user").put("content", "Say hello");
        return body;
    }
}
