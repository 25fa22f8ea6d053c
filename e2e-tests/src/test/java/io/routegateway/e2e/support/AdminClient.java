package io.routegateway.e2e.support;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** The state-service admin API ({@code /admin/v1}), called with the admin token. */
public final class AdminClient {

    private final String baseUrl;
    private final Map<String, String> auth;

    AdminClient(String baseUrl, String token) {
        this.baseUrl = baseUrl + "/admin/v1";
        this.auth = Map.of("authorization", "Bearer " + token);
    }

    public Http.Response call(String method, String path, Object body) {
        return Http.send(method, baseUrl + path, auth, body);
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
