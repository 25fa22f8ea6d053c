package io.routegateway.gateway.http;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.model.Protocol;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/** AccessKey authentication by hash, the key's filters, and the request-level refusals. */
@QuarkusTest
class AccessKeyTests extends GatewayTestBase {

    private String credential;
    private String group;

    @BeforeEach
    void pool() {
        credential = Pool.uid("c");
        group = Pool.uid("g");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential)
                        .serves("m", "other")
                        .groups(group)
                        .build(box)),
                List.of(Pool.group(group, false)),
                null);
    }

    private static final String GEMINI_BODY = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}";

    private String key(List<Protocol> protocols, List<String> models, boolean enabled, Instant expiresAt) {
        String keyId = Pool.uid("k");
        install(List.of(), List.of(), Pool.key(keyId, List.of(group), protocols, models, enabled, expiresAt, 1));
        return keyId;
    }

    private static void assertError(HttpResponse<String> response, int status, String code, String type) {
        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode error = parse(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo(code);
        assertThat(error.get("type").asText()).isEqualTo(type);
        assertThat(error.get("message").asText()).isNotBlank();
    }

    @Test
    void missingOrUnknownKeyIs401() {
        assertError(post("/v1/chat/completions", null, chat("m")), 401, "invalid_access_key", "authentication_error");
        assertError(
                post("/v1/chat/completions", Pool.uid("nobody"), chat("m")),
                401,
                "invalid_access_key",
                "authentication_error");
    }

    @Test
    void everyWayOfPresentingTheKeyIsAccepted() {
        String keyId = key(List.of(), List.of(), true, null);
        String plaintext = Pool.plaintext(keyId);
        String body = chat("m");

        assertThat(post("/v1/chat/completions", keyId, body).statusCode()).isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/chat/completions"))
                                .header("x-api-key", plaintext)
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build())
                        .statusCode())
                .isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/chat/completions"))
                                .header("x-goog-api-key", plaintext)
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build())
                        .statusCode())
                .isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri("/v1beta/models/m:generateContent?key=" + plaintext))
                                .POST(HttpRequest.BodyPublishers.ofString(GEMINI_BODY))
                                .build())
                        .statusCode())
                .isEqualTo(200);
    }

    /** ?key= is Gemini's way; on another protocol's route it would only put the key in access logs. */
    @Test
    void aKeyInTheUrlIsTakenOnGeminiRoutesOnly() {
        String keyId = key(List.of(), List.of(), true, null);
        String plaintext = Pool.plaintext(keyId);

        HttpResponse<String> chat = send(HttpRequest.newBuilder(uri("/v1/chat/completions?key=" + plaintext))
                .POST(HttpRequest.BodyPublishers.ofString(chat("m")))
                .build());
        assertError(chat, 401, "invalid_access_key", "authentication_error");
        assertThat(parse(chat.body()).at("/error/message").asText()).contains("Gemini");
        assertThat(chat.body()).doesNotContain(plaintext);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/messages?key=" + plaintext))
                                .header("anthropic-version", "2023-06-01")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                                .build())
                        .statusCode())
                .isEqualTo(401);
        assertThat(send(HttpRequest.newBuilder(uri("/v1/models?key=" + plaintext))
                                .GET()
                                .build())
                        .statusCode())
                .isEqualTo(401);

        assertThat(send(HttpRequest.newBuilder(uri("/v1beta/models?key=" + plaintext))
                                .GET()
                                .build())
                        .statusCode())
                .isEqualTo(200);
        assertThat(send(HttpRequest.newBuilder(uri("/v1beta/models/m:generateContent?key=" + plaintext))
                                .POST(HttpRequest.BodyPublishers.ofString(GEMINI_BODY))
                                .build())
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void disabledAndExpiredKeysAre401() {
        assertError(
                post("/v1/chat/completions", key(List.of(), List.of(), false, null), chat("m")),
                401,
                "access_key_disabled",
                "authentication_error");
        assertError(
                post(
                        "/v1/chat/completions",
                        key(List.of(), List.of(), true, Instant.now().minusSeconds(5)),
                        chat("m")),
                401,
                "access_key_expired",
                "authentication_error");
    }

    @Test
    void protocolAndModelFiltersAre403() {
        String chatOnly = key(List.of(Protocol.OPENAI_CHAT), List.of(), true, null);
        assertError(
                post("/v1/responses", chatOnly, "{\"model\":\"m\",\"input\":\"hi\"}"),
                403,
                "protocol_filtered",
                "permission_error");

        String onlyM = key(List.of(), List.of("m"), true, null);
        assertThat(post("/v1/chat/completions", onlyM, chat("m")).statusCode()).isEqualTo(200);
        assertError(post("/v1/chat/completions", onlyM, chat("other")), 403, "model_filtered", "permission_error");
        assertError(
                post("/v1/chat/completions", onlyM, "{\"messages\":[]}"),
                403,
                "model_required_by_filter",
                "permission_error");
        List<RequestCompleted> records = usage(onlyM, list -> list.size() >= 2);
        assertThat(records)
                .extracting(RequestCompleted::reasonCode)
                .contains("model_filtered", "model_required_by_filter");
    }

    @Test
    void malformedJsonIs400WithACode() {
        String keyId = key(List.of(), List.of(), true, null);
        assertError(post("/v1/chat/completions", keyId, "{not json"), 400, "invalid_json", "invalid_request_error");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void anOversizeBodyIs413WithACode() {
        String keyId = key(List.of(), List.of(), true, null);
        String huge = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "x".repeat(33 * 1024 * 1024)
                + "\"}]}";

        HttpResponse<String> response = post("/v1/chat/completions", keyId, huge);

        assertError(response, 413, "request_too_large", "invalid_request_error");
        assertThat(upstream.count(credential)).isZero();
    }
}
