package io.routegateway.e2e.support;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

/** The state-service admin API ({@code /admin/v1}), called with the admin token. */
public final class AdminClient {

    /** The audit log's subject of the bootstrap (break-glass) token this client calls with. */
    public static final String SUBJECT = "break-glass";

    /**
     * One write this client sent (any method but GET and HEAD): what it asked, the status it got, and
     * the {@code X-Request-Id} it carried (unique per call), which its audit entry records.
     */
    public record Write(String method, String path, int status, String requestId) {

        /** Whether the write was accepted (2xx). */
        public boolean accepted() {
            return status >= 200 && status < 300;
        }

        /** Whether the audit log records such a call: every write but the route check, a dry run. */
        public boolean audited() {
            return !path.startsWith("/route-check");
        }
    }

    private final String baseUrl;
    private final Map<String, String> auth;
    private final List<Write> writes = Collections.synchronizedList(new ArrayList<>());

    AdminClient(String baseUrl, String token) {
        this.baseUrl = baseUrl + "/admin/v1";
        this.auth = Map.of("authorization", "Bearer " + token);
    }

    public Http.Response call(String method, String path, Object body) {
        if (method.equals("GET") || method.equals("HEAD")) {
            return Http.send(method, baseUrl + path, auth, body);
        }
        String requestId = "e2e-" + UUID.randomUUID();
        Map<String, String> headers = new HashMap<>(auth);
        headers.put("x-request-id", requestId);
        Http.Response response = Http.send(method, baseUrl + path, headers, body);
        writes.add(new Write(method, path, response.status(), requestId));
        return response;
    }

    /** How many writes this client has sent so far: a mark for {@link #writesSince}. */
    public int writeMark() {
        return writes.size();
    }

    /** The writes sent since {@code mark}, in order. */
    public List<Write> writesSince(int mark) {
        synchronized (writes) {
            return List.copyOf(writes.subList(mark, writes.size()));
        }
    }

    /** Every audit entry at or after {@code from}, all pages, grouped by request id. */
    public Map<String, List<JsonNode>> auditSince(Instant from) {
        Map<String, List<JsonNode>> byRequest = new HashMap<>();
        String cursor = null;
        do {
            JsonNode page = expect(
                    200,
                    "GET",
                    "/audit?limit=500&from=" + from + (cursor == null ? "" : "&cursor=" + encode(cursor)),
                    null);
            page.path("items")
                    .forEach(entry -> byRequest
                            .computeIfAbsent(entry.path("request_id").asText(), id -> new ArrayList<>())
                            .add(entry));
            cursor = page.path("next_cursor").isTextual()
                    ? page.path("next_cursor").asText()
                    : null;
        } while (cursor != null);
        return byRequest;
    }

    /** A call that must answer {@code expectedStatus}; returns the JSON body. */
    public JsonNode expect(int expectedStatus, String method, String path, Object body) {
        Http.Response response = call(method, path, body);
        if (response.status() != expectedStatus) {
            throw new AssertionError(method + " " + path + " answered " + response.status() + ", expected "
                    + expectedStatus + ": " + response.body());
        }
        return response.body().isEmpty() ? null : response.json();
    }

    public JsonNode credential(String id) {
        return expect(200, "GET", "/credentials/" + id, null);
    }

    /** The auth view of an official credential's OAuth material (state, expiry, account id; never a token). */
    public JsonNode oauth(String credentialId) {
        return expect(200, "GET", "/credentials/" + credentialId + "/oauth", null);
    }

    /**
     * Stores OAuth material for an official credential (token fields or a CLI credentials file):
     * onboarding, or re-authorization in place; returns the auth view.
     */
    public JsonNode storeOAuth(String credentialId, Object material) {
        return expect(200, "PUT", "/credentials/" + credentialId + "/oauth", material);
    }

    public JsonNode models(String credentialId) {
        return expect(200, "GET", "/credentials/" + credentialId + "/models", null);
    }

    /** One model of the credential's model-status section, or a missing node. */
    public JsonNode model(String credentialId, String modelKey) {
        for (JsonNode model : models(credentialId)) {
            if (modelKey.equals(model.path("model_key").asText())) {
                return model;
            }
        }
        return Http.JSON.missingNode();
    }

    public JsonNode pauseModel(String credentialId, String modelKey) {
        return expect(200, "POST", "/credentials/" + credentialId + "/models/" + encode(modelKey) + "/pause", null);
    }

    public JsonNode resumeModel(String credentialId, String modelKey) {
        return expect(200, "POST", "/credentials/" + credentialId + "/models/" + encode(modelKey) + "/resume", null);
    }

    public JsonNode patchCredential(String id, Object body) {
        return expect(200, "PATCH", "/credentials/" + id, body);
    }

    public JsonNode patchAccessKey(String id, Object body) {
        return expect(200, "PATCH", "/access-keys/" + id, body);
    }

    /** A dry run of routing for a plaintext key. */
    public JsonNode routeCheck(String accessKey, String protocol, String model) {
        return expect(
                200,
                "POST",
                "/route-check",
                Http.JSON
                        .createObjectNode()
                        .put("access_key", accessKey)
                        .put("protocol", protocol)
                        .put("model", model));
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
