package io.routegateway.gateway.http;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.UnauthorizedException;
import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.errors.ClientException;
import com.google.genai.errors.ServerException;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import io.routegateway.gateway.support.Sdks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The gateway's own refusals (key, validation, routing) in the client protocol's envelope with the
 * right status, so each official SDK raises the exception it would for the vendor's own answer; the
 * gateway's code stays in the envelope (Anthropic {@code error.code}, Gemini {@code
 * error.details[].reason}, OpenAI {@code error.code}).
 */
@QuarkusTest
class ErrorEnvelopeTests extends GatewayTestBase {

    private static final String MESSAGES =
            "{\"model\":\"%s\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final String CONTENTS = "{\"contents\":[{\"parts\":[{\"text\":\"hi\"}]}]}";

    private String credential;
    private String keyId;

    @BeforeEach
    void pool() {
        credential = Pool.uid("c");
        String group = Pool.uid("g");
        keyId = Pool.uid("k");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
    }

    private static void anthropic(HttpResponse<String> response, int status, String type, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = parse(response.body());
        assertThat(body.get("type").asText()).as(response.body()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).as(response.body()).isEqualTo(type);
        assertThat(body.at("/error/code").asText()).isEqualTo(code);
        assertThat(body.at("/error/message").asText()).isNotBlank();
    }

    private static void gemini(HttpResponse<String> response, int status, String grpcStatus, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode error = parse(response.body()).get("error");
        assertThat(error.get("code").asInt()).as(response.body()).isEqualTo(status);
        assertThat(error.get("status").asText()).as(response.body()).isEqualTo(grpcStatus);
        assertThat(error.at("/details/0/@type").asText()).isEqualTo("type.googleapis.com/google.rpc.ErrorInfo");
        assertThat(error.at("/details/0/reason").asText()).isEqualTo(code);
        assertThat(error.get("message").asText()).isNotBlank();
    }

    @Test
    void anthropicClientsGetAnthropicsEnvelopeForEveryKindOfRefusal() {
        anthropic(
                post("/v1/messages", null, MESSAGES.formatted("m")), 401, "authentication_error", "invalid_access_key");
        anthropic(post("/v1/messages", keyId, "{\"messages\":[]}"), 400, "invalid_request_error", "model_required");
        anthropic(post("/v1/messages", keyId, "[1]"), 400, "invalid_request_error", "invalid_json");
        anthropic(post("/v1/messages", keyId, MESSAGES.formatted("nope")), 502, "api_error", "no_available_group");
        anthropic(
                post("/v1/messages/count_tokens", keyId, "{\"model\":\"m\",\"messages\":\"x\"}"),
                400,
                "invalid_request_error",
                "invalid_request");
        anthropic(
                send(request("/v1/messages", keyId)
                        .header(GatewayRoutes.NATIVE_ONLY_HEADER, "true")
                        .POST(HttpRequest.BodyPublishers.ofString(MESSAGES.formatted("m")))
                        .build()),
                502,
                "api_error",
                "native_route_required");
        String filtered = Pool.uid("k");
        install(List.of(), List.of(), Pool.key(filtered, List.of(), List.of(), List.of("other"), true, null, 1));
        anthropic(post("/v1/messages", filtered, MESSAGES.formatted("m")), 403, "permission_error", "model_filtered");
        // the listing an Anthropic SDK calls carries anthropic-version
        anthropic(
                send(request("/v1/models", Pool.uid("nobody"))
                        .header("anthropic-version", "2023-06-01")
                        .GET()
                        .build()),
                401,
                "authentication_error",
                "invalid_access_key");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void geminiClientsGetGeminisEnvelopeForEveryKindOfRefusal() {
        gemini(post("/v1beta/models/m:generateContent", null, CONTENTS), 401, "UNAUTHENTICATED", "invalid_access_key");
        gemini(post("/v1beta/models/a%2Fb:generateContent", keyId, CONTENTS), 400, "INVALID_ARGUMENT", "invalid_model");
        gemini(post("/v1beta/models/m:generateContent", keyId, "[]"), 400, "INVALID_ARGUMENT", "invalid_json");
        // a 10,000-character model id is within the request line limit: the gateway's own coded 400
        HttpResponse<String> longId =
                post("/v1beta/models/" + "m".repeat(10_000) + ":generateContent", keyId, CONTENTS);
        gemini(longId, 400, "INVALID_ARGUMENT", "invalid_model");
        assertThat(longId.body()).hasSizeLessThan(1_000);
        gemini(
                post("/v1beta/models/nope:streamGenerateContent", keyId, CONTENTS),
                502,
                "UNAVAILABLE",
                "no_available_group");
        gemini(post("/v1beta/models/m:countTokens", keyId, "{}"), 400, "INVALID_ARGUMENT", "invalid_request");
        gemini(get("/v1beta/models", Pool.uid("nobody")), 401, "UNAUTHENTICATED", "invalid_access_key");
        gemini(get("/v1beta/models/nope", keyId), 404, "NOT_FOUND", "model_not_found");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void openAiClientsKeepOpenAisEnvelope() {
        HttpResponse<String> response = post("/v1/chat/completions", keyId, chat("nope"));

        assertThat(response.statusCode()).isEqualTo(502);
        JsonNode error = parse(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("no_available_group");
        assertThat(error.get("type").asText()).isEqualTo("routing_error");
        assertThat(error.has("param")).isTrue();
        assertThat(error.get("message").asText()).contains("nope");
    }

    @Test
    void theAnthropicSdkRaisesTheExceptionOfTheStatus() {
        MessageCreateParams unmatched = MessageCreateParams.builder()
                .model("nope")
                .maxTokens(8)
                .addUserMessage("hi")
                .build();
        assertThatThrownBy(() -> Sdks.anthropic(gateway, keyId).messages().create(unmatched))
                .isInstanceOfSatisfying(AnthropicServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(502);
                    assertThat(e.getMessage()).contains("no_available_group");
                });
        assertThatThrownBy(() ->
                        Sdks.anthropic(gateway, Pool.uid("nobody")).messages().create(unmatched))
                .isInstanceOf(UnauthorizedException.class);
        MessageCreateParams tooLong = MessageCreateParams.builder()
                .model("m".repeat(300))
                .maxTokens(8)
                .addUserMessage("hi")
                .build();
        assertThatThrownBy(() -> Sdks.anthropic(gateway, keyId).messages().create(tooLong))
                .isInstanceOfSatisfying(
                        BadRequestException.class,
                        e -> assertThat(e.getMessage()).contains("invalid_model"));
    }

    @Test
    void theGoogleGenAiSdkRaisesClientOrServerExceptionsWithTheStatus() {
        assertThatThrownBy(() -> Sdks.gemini(gateway, keyId).models.generateContent("nope", "hi", null))
                .isInstanceOfSatisfying(ServerException.class, e -> {
                    assertThat(e.code()).isEqualTo(502);
                    assertThat(e.status()).isEqualTo("UNAVAILABLE");
                });
        assertThatThrownBy(() -> Sdks.gemini(gateway, Pool.uid("nobody")).models.generateContent("m", "hi", null))
                .isInstanceOfSatisfying(ClientException.class, e -> {
                    assertThat(e.code()).isEqualTo(401);
                    assertThat(e.status()).isEqualTo("UNAUTHENTICATED");
                });
    }
}
