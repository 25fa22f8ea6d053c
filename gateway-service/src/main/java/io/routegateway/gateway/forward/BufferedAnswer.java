package io.routegateway.gateway.forward;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.common.upstream.UpstreamResponse;
import io.routegateway.core.bridge.Bridge;
import io.routegateway.core.bridge.BridgeException;
import io.routegateway.core.bridge.ChatRequest;
import io.routegateway.core.bridge.Embeddings;
import io.routegateway.core.bridge.ErrorReply;
import io.routegateway.core.bridge.SseEvent;
import io.routegateway.core.bridge.StreamTranslator;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptPlan;
import io.routegateway.core.forward.AttemptVerdict;
import io.routegateway.core.forward.ChatStreamUsage;
import io.routegateway.core.json.Json;
import io.routegateway.core.usage.TokenUsage;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * An upstream answer read whole, as the client gets it: a success as it came (a native one) or
 * converted into the client's protocol (a bridged one), a client-side error as the upstream sent it
 * but masked (re-shaped into the client protocol's envelope on a bridge). The tokens are read from
 * the upstream's own body in both cases.
 */
final class BufferedAnswer {

    /** Marks a count_tokens or embeddings answer whose tokens the gateway estimated. */
    static final String ESTIMATE_HEADER = "x-route-token-count";

    /** What was answered, for the settlement. */
    record Sent(int status, boolean success, TokenUsage tokens) {}

    /**
     * The attempt's verdict on a whole answer and, for a usable bridged one, the answer converted
     * for the client (with the local token estimate behind a bridged embeddings answer).
     */
    record Judged(Verdict verdict, Buffer converted, Integer estimatedTokens) {}

    private BufferedAnswer() {}

    /**
     * Judges a whole answer ({@link AttemptVerdict}: the upstream's own answer first), then
     * converts a usable bridged one; an answer the bridge cannot read is a {@code response_transform}
     * failure. A bridged embeddings answer waits for the local token count (off the event loop when
     * the texts are large), so {@code then} may run later; it does not run once the client has gone.
     */
    static void judge(
            UpstreamResponse.Complete complete,
            AttemptPlan.Send plan,
            ProxyRequest request,
            CredentialSnapshot credential,
            Forwarding f,
            BooleanSupplier clientGone,
            Consumer<Judged> then,
            Consumer<Throwable> failed) {
        Verdict verdict = complete.verdict(
                credential.kind(), credential.platform(), f.clock().instant());
        Bridge bridge = plan.bridge();
        if (bridge == null || !(verdict instanceof Verdict.Success)) {
            then.accept(new Judged(verdict, null, null));
            return;
        }
        if (!request.embeddings()) {
            try {
                then.accept(new Judged(
                        verdict,
                        convert(
                                bridge,
                                plan.canonical(),
                                complete.body(),
                                request.clientStream(),
                                f.clock().instant()),
                        null));
            } catch (RuntimeException e) {
                then.accept(new Judged(transformFailure(bridge, complete, e), null, null));
            }
            return;
        }
        List<String> texts = Embeddings.texts(request.body());
        f.tokens()
                .count(
                        texts,
                        tokens -> {
                            if (clientGone.getAsBoolean()) {
                                return;
                            }
                            Judged judged;
                            try {
                                judged = new Judged(
                                        verdict,
                                        embeddingsFromGemini(
                                                complete.body(),
                                                texts,
                                                request.requestedModel(),
                                                Embeddings.base64(request.body()),
                                                tokens),
                                        tokens);
                            } catch (RuntimeException e) {
                                judged = new Judged(transformFailure(bridge, complete, e), null, null);
                            }
                            then.accept(judged);
                        },
                        failed);
    }

    private static Verdict transformFailure(Bridge bridge, UpstreamResponse.Complete complete, RuntimeException e) {
        return AttemptVerdict.BridgeFailure.of(bridge.label(), e).verdict(complete.status());
    }

    /** The answer of a returned attempt: native as it came, or bridged. */
    static Sent send(
            HttpServerResponse response,
            Settlement settlement,
            UpstreamResponse.Complete complete,
            Verdict verdict,
            Judged judged,
            Bridge bridge,
            CredentialMask mask,
            ProxyRequest request) {
        boolean success = verdict instanceof Verdict.Success;
        if (bridge == null) {
            return nativeAnswer(
                    response,
                    settlement,
                    complete,
                    success,
                    mask,
                    request.hidesUsageFrame(false),
                    request.countTokens());
        }
        return bridgedAnswer(
                response,
                settlement,
                complete,
                success,
                judged.converted(),
                judged.estimatedTokens(),
                bridge,
                mask,
                request.clientStream());
    }

    /**
     * A native answer.
     *
     * @param hidesUsageFrame a Chat stream read whole (an official account) whose client did not ask
     *     for usage: its usage frame is left out, as on a passed-through stream
     * @param countTokens a count_tokens answer: its input_tokens were counted, not spent
     */
    private static Sent nativeAnswer(
            HttpServerResponse response,
            Settlement settlement,
            UpstreamResponse.Complete complete,
            boolean success,
            CredentialMask mask,
            boolean hidesUsageFrame,
            boolean countTokens) {
        int status = complete.status();
        response.setStatusCode(status);
        UpstreamHeaders.copy(complete.headers(), response, "application/json");
        settlement.firstByteSent();
        Buffer body = success ? mask.answer(complete.body()) : mask.body(complete.body());
        if (success && hidesUsageFrame) {
            body = Buffer.buffer(ChatStreamUsage.withoutUsageFrame(body.getBytes()));
        }
        response.end(body);
        return new Sent(
                status,
                success,
                countTokens
                        ? TokenUsage.UNKNOWN
                        : TokenUsage.fromBody(complete.outcome().body()));
    }

    /**
     * A bridged answer: {@code converted} on success, else the upstream's client-side error
     * re-shaped into the client protocol's envelope (masked first).
     *
     * @param estimatedTokens the local estimate behind a bridged embeddings answer, null otherwise
     */
    private static Sent bridgedAnswer(
            HttpServerResponse response,
            Settlement settlement,
            UpstreamResponse.Complete complete,
            boolean success,
            Buffer converted,
            Integer estimatedTokens,
            Bridge bridge,
            CredentialMask mask,
            boolean clientStream) {
        int status = complete.status();
        Buffer body;
        if (success) {
            body = mask.answer(converted);
        } else {
            ErrorReply reply = bridge.error(status, mask.body(complete.body()).toString(StandardCharsets.UTF_8));
            status = reply.status();
            // masked again as re-encoded: the envelope may have decoded an escape the upstream used
            body = mask.answer(Buffer.buffer(reply.body().toString()));
        }
        response.setStatusCode(status);
        UpstreamHeaders.copy(complete.headers(), response, "application/json");
        response.putHeader("content-type", success && clientStream ? "text/event-stream" : "application/json");
        TokenUsage tokens = TokenUsage.fromBody(complete.outcome().body());
        if (success && estimatedTokens != null) {
            // embeddings through the bridge: the upstream did not count, the gateway estimated
            response.putHeader(ESTIMATE_HEADER, "estimate");
            tokens = new TokenUsage((long) estimatedTokens, 0L);
        }
        settlement.firstByteSent();
        response.end(body);
        return new Sent(status, success, tokens);
    }

    /**
     * The whole bridged answer for the client: one converted document, or a stream translated at
     * once. Throws when the bridge cannot read the upstream's answer.
     */
    static Buffer convert(
            Bridge bridge, ChatRequest canonical, Buffer upstreamBody, boolean clientStream, Instant now) {
        if (clientStream) {
            StreamTranslator whole = bridge.stream(canonical, now);
            List<SseEvent> events = new ArrayList<>(whole.feed(upstreamBody.getBytes()));
            events.addAll(whole.finish());
            return Buffer.buffer(StreamTranslator.wire(events));
        }
        return Buffer.buffer(bridge.response(json(upstreamBody), now).toString());
    }

    /**
     * A Gemini embeddings answer in OpenAI's shape, with the local estimate of the input as its
     * usage (Gemini reports no tokens). Throws when it is not one vector per input.
     */
    private static Buffer embeddingsFromGemini(
            Buffer upstreamBody, List<String> texts, String requestedModel, boolean base64, int tokens) {
        return Buffer.buffer(Embeddings.fromGemini(json(upstreamBody), texts.size(), requestedModel, base64, tokens)
                .toString());
    }

    private static JsonNode json(Buffer body) {
        try {
            return Json.MAPPER.readTree(body.getBytes());
        } catch (IOException e) {
            throw new BridgeException("upstream response is not JSON");
        }
    }
}
