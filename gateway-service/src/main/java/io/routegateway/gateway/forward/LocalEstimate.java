package io.routegateway.gateway.forward;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.vertx.core.http.HttpServerResponse;

/**
 * count_tokens (Anthropic) or countTokens (Gemini) on a credential that does not speak the client's
 * protocol: answered with the local estimate, in the client protocol's shape. No upstream is called,
 * so nothing is recorded for the credential and the usage record carries no tokens (nothing was
 * spent).
 */
final class LocalEstimate {

    private LocalEstimate() {}

    /**
     * Counts off the event loop when the body is large (a string is never longer than its bytes),
     * then answers unless the client has gone; {@code answered} settles the request.
     */
    static void answer(
            TokenCounter tokens,
            ProxyRequest request,
            HttpServerResponse response,
            Settlement settlement,
            BooleanSupplier clientGone,
            Runnable answered,
            Consumer<Throwable> failed) {
        boolean gemini = request.protocol() == Protocol.GEMINI;
        JsonNode body = request.body();
        tokens.count(
                request.bodyBytes(),
                () -> gemini ? TokenEstimator.geminiInputTokens(body) : TokenEstimator.inputTokens(body),
                count -> {
                    if (clientGone.getAsBoolean()) {
                        return;
                    }
                    response.setStatusCode(200)
                            .putHeader("content-type", "application/json")
                            .putHeader(BufferedAnswer.ESTIMATE_HEADER, "estimate");
                    settlement.firstByteSent();
                    response.end(Json.MAPPER
                            .createObjectNode()
                            .put(gemini ? "totalTokens" : "input_tokens", count)
                            .toString());
                    answered.run();
                },
                failed);
    }
}
