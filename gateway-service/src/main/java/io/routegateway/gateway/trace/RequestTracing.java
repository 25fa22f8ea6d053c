package io.routegateway.gateway.trace;

import jakarta.inject.Singleton;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.telemetry.FailoverCause;
import io.routegateway.core.telemetry.GenAiAttributes;
import io.routegateway.core.usage.TokenUsage;

/**
 * The gateway's spans (docs/observability.md#traces): the client request's server span is
 * Quarkus's (one per HTTP request); this adds the GenAI and gateway attributes to it while the
 * response is open, and opens one child span per upstream attempt, so retries and failovers are
 * siblings under it. Every attribute is an identifier, a count or a closed-set label: no prompt,
 * answer, upstream error text, header or secret ever reaches a span. When tracing is off (the SDK
 * disabled, or the request not sampled) the spans are OpenTelemetry's no-op ones and nothing is
 * computed for them ({@link Span#isRecording()}).
 */
@Singleton
public class RequestTracing {

    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    public static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    public static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    public static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    public static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("route.request.id");
    public static final AttributeKey<String> ACCESS_KEY_ID = AttributeKey.stringKey("route.access_key.id");
    public static final AttributeKey<String> CREDENTIAL_ID = AttributeKey.stringKey("route.credential.id");
    public static final AttributeKey<String> GROUP_ID = AttributeKey.stringKey("route.group.id");
    public static final AttributeKey<String> MODEL_KEY = AttributeKey.stringKey("route.model_key");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("route.attempt");
    public static final AttributeKey<Long> ATTEMPTS = AttributeKey.longKey("route.attempts");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("route.outcome");
    public static final AttributeKey<String> FAILURE_KIND = AttributeKey.stringKey("route.failure.kind");
    public static final AttributeKey<String> FAILURE_SCOPE = AttributeKey.stringKey("route.failure.scope");
    public static final AttributeKey<String> REASON_CODE = AttributeKey.stringKey("route.reason_code");
    public static final AttributeKey<String> BRIDGE = AttributeKey.stringKey("route.bridge");
    public static final AttributeKey<Long> UPSTREAM_STATUS = AttributeKey.longKey("http.response.status_code");

    private final Tracer tracer;

    RequestTracing(Tracer tracer) {
        this.tracer = tracer;
    }

    /** The client request's context (its server span), taken on the request's event loop. */
    public Context requestContext() {
        return Context.current();
    }

    /**
     * Opens the span of one upstream attempt, a child of the client request's span.
     *
     * @param attempt the request's attempt number, from 1
     * @param upstreamModel the model the attempt asks the upstream for
     * @param bridge the protocol bridge's label, null when the attempt speaks the client's protocol
     */
    public Span attemptStarted(
            Context request,
            Operation operation,
            Protocol upstreamProtocol,
            CredentialSnapshot credential,
            String groupId,
            String modelKey,
            String upstreamModel,
            int attempt,
            String bridge) {
        Span server = Span.fromContext(request);
        if (!server.isRecording()) {
            return Span.getInvalid();
        }
        String provider = GenAiAttributes.providerName(credential.platform());
        // the server span names the last credential tried and how many attempts were made
        server.setAttribute(PROVIDER, provider);
        server.setAttribute(CREDENTIAL_ID, credential.credentialId());
        server.setAttribute(ATTEMPTS, (long) attempt);
        if (groupId != null) {
            server.setAttribute(GROUP_ID, groupId);
        }
        if (modelKey != null) {
            server.setAttribute(MODEL_KEY, modelKey);
        }
        String operationName = GenAiAttributes.operationName(operation, upstreamProtocol);
        String model = upstreamModel != null ? upstreamModel : modelKey;
        Span span = tracer.spanBuilder(model == null ? operationName : operationName + " " + model)
                .setParent(request)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(OPERATION, operationName)
                .setAttribute(PROVIDER, provider)
                .setAttribute(CREDENTIAL_ID, credential.credentialId())
                .setAttribute(ATTEMPT, (long) attempt)
                .startSpan();
        if (model != null) {
            span.setAttribute(REQUEST_MODEL, model);
        }
        if (modelKey != null) {
            span.setAttribute(MODEL_KEY, modelKey);
        }
        if (groupId != null) {
            span.setAttribute(GROUP_ID, groupId);
        }
        if (bridge != null) {
            span.setAttribute(BRIDGE, bridge);
        }
        return span;
    }

    /**
     * Ends an attempt's span with its verdict: the outcome label, and for a failure its kind, the
     * cooldown scope it is charged to and the upstream status. The verdict's message and body are
     * never read.
     *
     * @param outcome the attempt's outcome label ({@code success}, {@code transient}, {@code retried}…)
     * @param tokens what the upstream reported, null when not known at the end of the attempt
     */
    public void attemptEnded(Span span, Verdict verdict, String outcome, String modelKey, TokenUsage tokens) {
        attemptEnded(null, span, verdict, outcome, modelKey, tokens, null);
    }

    /**
     * As {@link #attemptEnded(Span, Verdict, String, String, TokenUsage)}, with the model the upstream
     * said it answered with ({@code gen_ai.response.model}, read by route-core {@code
     * telemetry/ResponseModel}; null when the answer names none): on the attempt's span, and on the
     * client request's span while it is still open.
     */
    public void attemptEnded(
            Context request,
            Span span,
            Verdict verdict,
            String outcome,
            String modelKey,
            TokenUsage tokens,
            String responseModel) {
        if (!span.isRecording()) {
            return;
        }
        if (responseModel != null) {
            span.setAttribute(RESPONSE_MODEL, responseModel);
            Span server = request == null ? Span.getInvalid() : Span.fromContext(request);
            if (server.isRecording()) {
                server.setAttribute(RESPONSE_MODEL, responseModel);
            }
        }
        if (outcome != null) {
            span.setAttribute(OUTCOME, outcome);
        }
        if (verdict != null) {
            Integer status = status(verdict);
            if (status != null) {
                span.setAttribute(UPSTREAM_STATUS, status.longValue());
            }
            String kind = verdict.failureLabel();
            if (kind != null) {
                FailoverCause cause = FailoverCause.of(verdict, modelKey);
                span.setAttribute(FAILURE_KIND, cause.kind());
                span.setAttribute(FAILURE_SCOPE, cause.scope());
                span.setAttribute(ERROR_TYPE, kind);
                span.setStatus(StatusCode.ERROR);
            }
        }
        tokens(span, tokens);
        span.end();
    }

    /** Ends an attempt's span that ended without a verdict (the client left, the gateway failed). */
    public void attemptAbandoned(Span span, String reason) {
        if (!span.isRecording()) {
            return;
        }
        span.setAttribute(OUTCOME, reason);
        span.end();
    }

    /**
     * The client request was admitted and is about to be forwarded: what is known of it goes on its
     * server span now. Quarkus ends that span when the response ends, which is before the request
     * settles, so everything the server span carries is set while the response is still open: here,
     * at each attempt ({@link #attemptStarted}) and before a refusal is written ({@link #refused}).
     */
    public void requestStarted(
            Context request,
            String requestId,
            String accessKeyId,
            Operation operation,
            Protocol protocol,
            String requestedModel) {
        Span span = Span.fromContext(request);
        if (!span.isRecording()) {
            return;
        }
        span.setAttribute(OPERATION, GenAiAttributes.operationName(operation, protocol));
        span.setAttribute(PROVIDER, GenAiAttributes.NONE);
        if (requestedModel != null) {
            span.setAttribute(REQUEST_MODEL, requestedModel);
        }
        span.setAttribute(REQUEST_ID, requestId);
        span.setAttribute(ACCESS_KEY_ID, accessKeyId);
        span.setAttribute(ATTEMPTS, 0L);
    }

    /** The gateway refuses the request with {@code reasonCode}; called before the refusal is written. */
    public void refused(Context request, String reasonCode) {
        Span span = Span.fromContext(request);
        if (span.isRecording() && reasonCode != null) {
            span.setAttribute(REASON_CODE, reasonCode);
        }
    }

    /**
     * The client request settled. Its server span has usually ended with the response by now (then
     * this does nothing); it is still open when the client went away before the answer ended.
     *
     * @param reasonCode the usage record's reason code, null on success
     */
    public void settled(Context request, String reasonCode, TokenUsage tokens) {
        Span span = Span.fromContext(request);
        if (!span.isRecording()) {
            return;
        }
        if (reasonCode != null) {
            span.setAttribute(REASON_CODE, reasonCode);
        }
        tokens(span, tokens);
    }

    private static void tokens(Span span, TokenUsage tokens) {
        if (tokens == null) {
            return;
        }
        if (tokens.inputTokens() != null && tokens.inputTokens() >= 0) {
            span.setAttribute(INPUT_TOKENS, tokens.inputTokens());
        }
        if (tokens.outputTokens() != null && tokens.outputTokens() >= 0) {
            span.setAttribute(OUTPUT_TOKENS, tokens.outputTokens());
        }
    }

    private static Integer status(Verdict verdict) {
        if (verdict instanceof Verdict.Transient t) {
            return t.status();
        }
        if (verdict instanceof Verdict.Permanent p) {
            return p.status();
        }
        if (verdict instanceof Verdict.QuotaExhausted q) {
            return q.status();
        }
        if (verdict instanceof Verdict.NotAFailure n) {
            return n.status();
        }
        return null;
    }
}
