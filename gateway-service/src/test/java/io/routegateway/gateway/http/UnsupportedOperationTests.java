package io.routegateway.gateway.http;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.model.Protocol;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Operations the gateway does not serve answer {@code operation_unsupported} (the scheduling page's
 * code and meaning) in the envelope of the client's protocol, never a bare 404, and reach no
 * upstream.
 */
@QuarkusTest
class UnsupportedOperationTests extends GatewayTestBase {

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

    @Test
    void anthropicBatchesIsOperationUnsupportedInTheAnthropicEnvelope() {
        HttpResponse<String> response = send(request("/v1/messages/batches", keyId)
                .header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(chat("m")))
                .build());

        assertThat(response.statusCode()).isEqualTo(502);
        JsonNode body = parse(response.body());
        assertThat(body.get("type").asText()).isEqualTo("error");
        // Anthropic's own type for the status: its SDKs choose the exception by status
        assertThat(body.at("/error/type").asText()).isEqualTo("api_error");
        assertThat(body.at("/error/code").asText()).isEqualTo("operation_unsupported");
        assertThat(body.at("/error/message").asText())
                .contains("does not support this operation")
                .contains("/v1/messages/batches")
                .contains("POST /v1/messages");
        assertThat(upstream.count(credential)).isZero();
        assertThat(usage(keyId, records -> !records.isEmpty())).singleElement().satisfies(record -> {
            assertThat(record.reasonCode()).isEqualTo("operation_unsupported");
            assertThat(record.protocol()).isEqualTo(Protocol.ANTHROPIC_MESSAGES);
            assertThat(record.success()).isFalse();
        });
    }

    @Test
    void openAiFilesAndAServedPathWithAnotherMethodAreOperationUnsupportedInTheOpenAiEnvelope() {
        for (HttpResponse<String> response : List.of(
                post("/v1/files", keyId, "{\"model\":\"m\",\"input\":\"hi\"}"), get("/v1/chat/completions", keyId))) {
            assertThat(response.statusCode()).isEqualTo(502);
            JsonNode error = parse(response.body()).get("error");
            assertThat(error.get("code").asText()).isEqualTo("operation_unsupported");
            assertThat(error.get("type").asText()).isEqualTo("routing_error");
            assertThat(error.has("param")).isTrue();
            assertThat(error.get("message").asText()).contains("POST /v1/chat/completions");
        }
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void geminiEmbedContentIsOperationUnsupportedInTheGeminiEnvelope() {
        HttpResponse<String> response = post("/v1beta/models/m:embedContent", keyId, "{\"content\":{}}");

        assertThat(response.statusCode()).isEqualTo(502);
        JsonNode error = parse(response.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(502);
        assertThat(error.get("status").asText()).isEqualTo("UNIMPLEMENTED");
        assertThat(error.at("/details/0/reason").asText()).isEqualTo("operation_unsupported");
        assertThat(error.get("message").asText()).contains(":generateContent");
        assertThat(upstream.count(credential)).isZero();
    }

    @Test
    void anUnsupportedOperationStillNeedsAValidKey() {
        HttpResponse<String> response = post("/v1/files", null, "{}");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(parse(response.body()).at("/error/code").asText()).isEqualTo("invalid_access_key");
    }

    @Test
    void aHugePathIsQuotedBackCut() {
        HttpResponse<String> response = post("/v1/" + "x".repeat(1000), keyId, "{}");

        assertThat(response.statusCode()).isEqualTo(502);
        String message = parse(response.body()).at("/error/message").asText();
        assertThat(message).hasSizeLessThan(600).contains("x…");
    }
}
