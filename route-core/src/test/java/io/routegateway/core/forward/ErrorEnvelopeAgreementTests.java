package io.routegateway.core.forward;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.bridge.Bridge;
import io.routegateway.core.bridge.ErrorReply;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client cannot tell whether an error came from the gateway or from a bridged upstream by the
 * field its SDK reads: for each client protocol and status, a gateway refusal and an upstream error
 * of that status re-shaped by the bridge carry the same HTTP status and the same type (Anthropic's
 * {@code error.type}) or status name and code (Gemini's {@code error.status}, {@code error.code}).
 * OpenAI's {@code error.type} is the gateway's own error type in a refusal by contract, so only the
 * HTTP status is compared there.
 */
class ErrorEnvelopeAgreementTests {

    static final int[] STATUSES = {400, 401, 403, 404, 408, 413, 429, 500, 502, 503, 504, 529};

    static final String UPSTREAM_BODY = "{\"error\":{\"message\":\"upstream said no\"}}";

    static Stream<Arguments> clientsUpstreamsAndStatuses() {
        List<Arguments> rows = new ArrayList<>();
        for (Protocol client : Protocol.values()) {
            for (Protocol upstream : Protocol.values()) {
                if (upstream == client) {
                    continue;
                }
                for (int status : STATUSES) {
                    rows.add(Arguments.of(client, upstream, status));
                }
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} client <- {1} upstream, {2}")
    @MethodSource("clientsUpstreamsAndStatuses")
    void aRefusalAndABridgedUpstreamErrorOfOneStatusLookAlikeToTheClientsSdk(
            Protocol client, Protocol upstream, int status) throws Exception {
        ErrorReply refusal = ErrorEnvelope.refusal(client, status, "some_gateway_code", "refused", "gateway_type");
        ErrorReply bridged = Bridge.between(client, upstream).error(status, UPSTREAM_BODY);

        assertThat(bridged.status()).as("HTTP status").isEqualTo(refusal.status());
        JsonNode refused = Json.MAPPER.readTree(refusal.body().toString());
        JsonNode reshaped = bridged.body();
        switch (client) {
            case ANTHROPIC_MESSAGES -> {
                assertThat(reshaped.path("type").asText()).isEqualTo("error");
                assertThat(reshaped.at("/error/type").asText())
                        .as("error.type")
                        .isEqualTo(refused.at("/error/type").asText());
            }
            case GEMINI -> {
                assertThat(reshaped.at("/error/status").asText())
                        .as("error.status")
                        .isEqualTo(refused.at("/error/status").asText());
                assertThat(reshaped.at("/error/code").asInt())
                        .as("error.code")
                        .isEqualTo(refused.at("/error/code").asInt())
                        .isEqualTo(bridged.status());
            }
            case OPENAI_CHAT, OPENAI_RESPONSES -> {
                assertThat(reshaped.at("/error/type").asText()).isNotEmpty();
                assertThat(refused.at("/error/type").asText()).isEqualTo("gateway_type");
            }
        }
        // the gateway's code stays in a refusal; an upstream's error carries none of the gateway's
        assertThat(refused.toString()).contains("some_gateway_code");
        assertThat(reshaped.toString()).doesNotContain("some_gateway_code").contains("upstream said no");
    }
}
