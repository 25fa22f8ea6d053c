package io.routegateway.gateway.forward;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.bridge.BridgePlan;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.forward.AttemptPlan;
import io.routegateway.core.forward.ChatStreamUsage;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.gateway.admission.Ticket;

/**
 * One authenticated client request, parsed once: everything the retry loop needs, immutable.
 *
 * @param requestedModel from the body ({@code model}) or, for Gemini, the URL path; null when none
 * @param clientStream the client asked for a stream
 * @param customTools the body declares custom tools (keeps the buffered path)
 * @param clientHeaders the client's headers; only the forwarded ones reach the upstream
 * @param bridges the request's protocol rule, also holding its conversions for bridged credentials
 * @param bodyBytes the body's size in bytes
 * @param arrivedNanos {@code System.nanoTime()} at arrival
 * @param operation what is asked: a generation, Anthropic's {@code count_tokens} (forwarded to a
 *     native credential's {@code /v1/messages/count_tokens}, estimated locally for a bridged one) or
 *     OpenAI's embeddings
 * @param admission what the admission stage gave it: its team, its lease (closed at settlement) and
 *     its rate-limit headers
 */
public record ProxyRequest(
        UUID requestId,
        Protocol protocol,
        AccessKeySnapshot accessKey,
        JsonNode body,
        String requestedModel,
        boolean clientStream,
        boolean customTools,
        List<Map.Entry<String, String>> clientHeaders,
        RouteRequest route,
        BridgePlan bridges,
        long bodyBytes,
        long arrivedNanos,
        Operation operation,
        Ticket admission) {

    public ProxyRequest {
        admission = admission == null ? Ticket.NONE : admission;
    }

    /** A request of a key nothing limits. */
    public ProxyRequest(
            UUID requestId,
            Protocol protocol,
            AccessKeySnapshot accessKey,
            JsonNode body,
            String requestedModel,
            boolean clientStream,
            boolean customTools,
            List<Map.Entry<String, String>> clientHeaders,
            RouteRequest route,
            BridgePlan bridges,
            long bodyBytes,
            long arrivedNanos,
            Operation operation) {
        this(
                requestId,
                protocol,
                accessKey,
                body,
                requestedModel,
                clientStream,
                customTools,
                clientHeaders,
                route,
                bridges,
                bodyBytes,
                arrivedNanos,
                operation,
                Ticket.NONE);
    }

    /**
     * This request once its stream is committed to the client: nothing is retried, routed or
     * converted any more, so the body and the conversions of it are let go (a long prompt would
     * otherwise stay in memory for the whole stream); what the usage record and the affinity need
     * stays. {@link #body()} and {@link #bridges()} are null on it.
     */
    public ProxyRequest committed() {
        return new ProxyRequest(
                requestId,
                protocol,
                accessKey,
                null,
                requestedModel,
                clientStream,
                customTools,
                clientHeaders,
                route.affinityOnly(),
                null,
                bodyBytes,
                arrivedNanos,
                operation,
                admission);
    }

    /** What an attempt needs of the client's request. */
    public AttemptPlan.Client attemptInput() {
        return new AttemptPlan.Client(protocol, operation, body, clientHeaders, clientStream, customTools, bridges);
    }

    /**
     * Whether an answer to this request is an OpenAI Chat stream whose client did not ask for usage:
     * the upstream was asked for it (to settle the tokens), the client does not see its usage frame.
     */
    public boolean hidesUsageFrame(boolean bridged) {
        return !bridged && protocol == Protocol.OPENAI_CHAT && ChatStreamUsage.hidesUsageFrame(body, clientStream);
    }

    /** An Anthropic {@code count_tokens} request. */
    public boolean countTokens() {
        return operation == Operation.COUNT_TOKENS;
    }

    /** An OpenAI embeddings request. */
    public boolean embeddings() {
        return operation == Operation.EMBEDDINGS;
    }
}
