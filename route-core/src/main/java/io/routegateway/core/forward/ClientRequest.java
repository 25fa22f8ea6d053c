package io.routegateway.core.forward;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.access.AccessDecision;
import io.routegateway.core.bridge.BridgePlan;
import io.routegateway.core.bridge.Embeddings;
import io.routegateway.core.bridge.EmbeddingsRule;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.upstream.GeminiModels;

/**
 * What the gateway needs of an authenticated client request, read once from its parsed body and
 * path, or the refusal that answers it before routing. Pure: the body arrives parsed (or null when
 * it was not JSON), the time is passed in.
 *
 * <p>The checks, in order: the body is a JSON object ({@code invalid_json}); the model — Gemini's
 * from the URL path ({@code invalid_model} for a segment that cannot name one), every other
 * protocol's from the body, where a missing or unusable model is answered by the key's own refusals
 * first ({@link #refuseModel}); count_tokens' and embeddings' own shape ({@code invalid_request}).
 * Then the stream flag, custom tools and the bridge plan (the conversions for bridged credentials)
 * are worked out, and with them the route request.
 */
public sealed interface ClientRequest {

    String INVALID_JSON = "invalid_json";
    String INVALID_REQUEST = "invalid_request";
    String INVALID_MODEL = "invalid_model";
    String MODEL_REQUIRED = "model_required";

    /** Accepted for routing. */
    record Accepted(
            Operation operation,
            String model,
            boolean clientStream,
            boolean customTools,
            RouteRequest route,
            BridgePlan bridges)
            implements ClientRequest {}

    /** Answered before routing. */
    record Refused(Refusal refusal) implements ClientRequest {}

    /**
     * @param operation what the route serves; a Gemini {@code :countTokens} path turns a generation
     *     into {@link Operation#COUNT_TOKENS}
     * @param body the parsed body, null when it was not JSON
     * @param geminiModelSegment Gemini only: the model's path segment, still percent-encoded
     * @param geminiMethod Gemini only: {@code generateContent}, {@code streamGenerateContent} or
     *     {@code countTokens}
     * @param nativeOnly the client asked that the request not be converted
     */
    static ClientRequest parse(
            Protocol protocol,
            Operation operation,
            JsonNode body,
            String geminiModelSegment,
            String geminiMethod,
            boolean nativeOnly,
            AccessKeySnapshot key,
            Instant now) {
        if (body == null || !body.isObject()) {
            return refused(Refusal.badRequest(INVALID_JSON, "the request body is not a JSON object"));
        }
        String model;
        boolean geminiStream = false;
        if (protocol == Protocol.GEMINI) {
            model = GeminiModels.decodePathSegment(geminiModelSegment);
            // the segment goes into the upstream URL, which carries the pool's key
            String problem = GeminiModels.problem(model);
            if (problem != null) {
                return refused(Refusal.badRequest(INVALID_MODEL, problem));
            }
            geminiStream = "streamGenerateContent".equals(geminiMethod);
            if ("countTokens".equals(geminiMethod)) {
                operation = Operation.COUNT_TOKENS;
            }
        } else {
            RequestedModel requested = RequestedModel.of(body.get("model"));
            if (!(requested instanceof RequestedModel.Named named)) {
                return refused(refuseModel(key, protocol, requested, now));
            }
            model = named.model();
        }
        boolean countTokens = operation == Operation.COUNT_TOKENS;
        if (countTokens) {
            String problem = protocol == Protocol.GEMINI
                    ? GeminiCountTokensRequest.problem(body)
                    : CountTokensRequest.problem(body);
            if (problem != null) {
                return refused(Refusal.badRequest(INVALID_REQUEST, problem));
            }
        }
        if (operation == Operation.EMBEDDINGS) {
            String problem = Embeddings.problem(body);
            if (problem != null) {
                return refused(Refusal.badRequest(INVALID_REQUEST, problem));
            }
            // no affinity: an embedding has no conversation to keep on one credential
            return new Accepted(
                    operation,
                    model,
                    false,
                    false,
                    new RouteRequest(key, protocol, model, null, new EmbeddingsRule(body, nativeOnly)),
                    null);
        }
        boolean stream = !countTokens && StreamingPassthrough.clientAskedForStream(protocol, body, geminiStream);
        BridgePlan bridges = BridgePlan.of(
                protocol,
                // count_tokens converts nothing: a bridged credential's answer is the local estimate
                countTokens ? null : body,
                protocol == Protocol.GEMINI ? model : null,
                stream,
                model,
                nativeOnly);
        return new Accepted(
                operation,
                model,
                stream,
                StreamingPassthrough.hasCustomTools(protocol, body),
                RouteRequest.of(key, protocol, model, body, bridges),
                bridges);
    }

    /**
     * A request without a usable model: the key's own refusals come first, in the spec's order (a
     * disabled key is {@code access_key_disabled} whatever its body); then {@code
     * model_required_by_filter} when the key restricts models and names none, {@code model_required}
     * (400) when it does not, {@code invalid_model} (400) for a value that cannot name a model.
     */
    static Refusal refuseModel(AccessKeySnapshot key, Protocol protocol, RequestedModel requested, Instant now) {
        AccessDecision decision = AccessDecision.decide(key, protocol, null, now);
        if (decision instanceof AccessDecision.Refused refused
                && (refused.code() != ReasonCode.MODEL_REQUIRED_BY_FILTER
                        || requested instanceof RequestedModel.Missing)) {
            ReasonCode code = refused.code();
            String message =
                    requested instanceof RequestedModel.Missing missing && code == ReasonCode.MODEL_REQUIRED_BY_FILTER
                            ? code.meaning() + "; " + missing.message()
                            : refused.message();
            return Refusal.of(code, message);
        }
        if (requested instanceof RequestedModel.Missing missing) {
            return Refusal.badRequest(MODEL_REQUIRED, missing.message());
        }
        return Refusal.badRequest(INVALID_MODEL, ((RequestedModel.Invalid) requested).message());
    }

    private static ClientRequest refused(Refusal refusal) {
        return new Refused(refusal);
    }
}
