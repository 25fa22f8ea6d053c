package io.routegateway.core.forward;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.bridge.Bridge;
import io.routegateway.core.bridge.BridgePlan;
import io.routegateway.core.bridge.ChatRequest;
import io.routegateway.core.bridge.RequestConversion;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.upstream.UpstreamRequest;
import io.routegateway.core.upstream.UpstreamRequests;

/**
 * What one attempt on the selected credential does: send an upstream request (built for the
 * credential's platform, converted through a bridge when the credential speaks another protocol),
 * answer with the local token estimate (count_tokens on a bridged credential: no upstream speaks
 * the client's counting API), or fail as {@code request_build} when the request cannot be built
 * (a secret that does not open, a conversion that did not happen) — the credential's fault,
 * account-scoped, recorded and failed over.
 */
public sealed interface AttemptPlan {

    /**
     * Send {@code request}; read it as a stream when {@code mayStream} ({@link
     * StreamingPassthrough}'s rules, passthrough or translation).
     *
     * @param bridge null on a native attempt
     * @param canonical the canonical request behind a bridged generation (its stream encoder needs
     *     it), null otherwise
     * @param echo what the request carried: an upstream quoting it back gives no evidence
     */
    record Send(UpstreamRequest request, boolean mayStream, Bridge bridge, ChatRequest canonical, ClientEcho echo)
            implements AttemptPlan {}

    /** Answer a bridged count_tokens with the local estimate; no upstream call. */
    record LocalEstimate(Bridge bridge) implements AttemptPlan {}

    /** The request could not be built: a {@code request_build} failure of the credential. */
    record Unbuildable(Verdict.Transient verdict) implements AttemptPlan {}

    /** The client's request as the attempt needs it. */
    record Client(
            Protocol protocol,
            Operation operation,
            JsonNode body,
            List<Map.Entry<String, String>> headers,
            boolean stream,
            boolean customTools,
            BridgePlan bridges) {}

    /**
     * @param secret opens the credential's secret; it may throw (a secret that does not open)
     */
    static AttemptPlan of(Client client, RouteResult.Selected selected, Supplier<String> secret) {
        CredentialSnapshot credential = selected.credential();
        Protocol upstreamProtocol = selected.upstreamProtocol();
        Bridge bridge = selected.bridged() ? Bridge.between(client.protocol(), upstreamProtocol) : null;
        boolean countTokens = client.operation() == Operation.COUNT_TOKENS;
        boolean embeddings = client.operation() == Operation.EMBEDDINGS;
        if (countTokens && bridge != null) {
            return new LocalEstimate(bridge);
        }
        UpstreamRequest upstream;
        ChatRequest canonical = null;
        try {
            JsonNode body = client.body();
            List<Map.Entry<String, String>> headers =
                    bridge == null ? client.headers() : bridgedHeaders(client.headers());
            if (embeddings) {
                upstream = UpstreamRequests.embeddings(
                        credential.platform(),
                        credential.kind(),
                        credential.baseUrl(),
                        secret.get(),
                        upstreamProtocol,
                        body,
                        headers,
                        selected.upstreamModel(),
                        credential.upstreamHeaders());
            } else {
                if (bridge != null) {
                    // converted once per upstream protocol while routing; kept in the bridge plan
                    if (!(client.bridges().conversion(upstreamProtocol)
                            instanceof RequestConversion.Converted conversion)) {
                        throw new IllegalStateException("the request did not convert");
                    }
                    canonical = conversion.request();
                    body = conversion.body();
                }
                upstream = UpstreamRequests.forward(
                        credential.platform(),
                        credential.kind(),
                        credential.baseUrl(),
                        secret.get(),
                        upstreamProtocol,
                        body,
                        headers,
                        selected.upstreamModel(),
                        client.stream(),
                        credential.oauth() == null ? null : credential.oauth().accountId(),
                        credential.upstreamHeaders());
            }
        } catch (RuntimeException e) {
            return new Unbuildable(requestBuild(bridge, e));
        }
        if (countTokens) {
            upstream = UpstreamRequests.countTokens(upstream, client.body());
        }
        boolean mayStream = !countTokens
                && !embeddings
                && (bridge == null
                        ? StreamingPassthrough.mayStream(
                                false, client.stream(), client.customTools(), credential.kind())
                        : StreamingPassthrough.mayTranslate(client.stream(), credential.kind()));
        // what the upstream was sent (the converted body on a bridge) is what it may quote back
        return new Send(upstream, mayStream, bridge, canonical, ClientEcho.of(upstream.body(), upstream.url()));
    }

    /** The credential's fault: a request that cannot be built for it is account-scoped. */
    static Verdict.Transient requestBuild(Bridge bridge, RuntimeException e) {
        return new Verdict.Transient(
                FailureKind.REQUEST_BUILD,
                null,
                "could not build the upstream request"
                        + (bridge == null ? "" : " through the bridge " + bridge.label()) + ": "
                        + e.getClass().getSimpleName(),
                null,
                false);
    }

    /** A bridged request carries none of the client's protocol headers, only its agent and language. */
    static List<Map.Entry<String, String>> bridgedHeaders(List<Map.Entry<String, String>> client) {
        List<Map.Entry<String, String>> kept = new ArrayList<>(2);
        for (Map.Entry<String, String> header : client) {
            if (header.getKey().equalsIgnoreCase("user-agent")
                    || header.getKey().equalsIgnoreCase("accept-language")) {
                kept.add(header);
            }
        }
        return kept;
    }
}
