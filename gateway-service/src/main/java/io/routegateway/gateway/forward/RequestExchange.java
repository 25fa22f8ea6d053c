package io.routegateway.gateway.forward;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.common.upstream.UpstreamResponse;
import io.routegateway.common.upstream.UpstreamStream;
import io.routegateway.core.bridge.Bridge;
import io.routegateway.core.bridge.BridgeException;
import io.routegateway.core.bridge.ChatRequest;
import io.routegateway.core.bridge.Embeddings;
import io.routegateway.core.bridge.ErrorReply;
import io.routegateway.core.bridge.RequestConversion;
import io.routegateway.core.bridge.SseEvent;
import io.routegateway.core.bridge.StreamTranslator;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.failure.ClientEcho;
import io.routegateway.core.failure.FailureKind;
import io.routegateway.core.failure.OutcomeClassifier;
import io.routegateway.core.failure.SecretMask;
import io.routegateway.core.failure.SemanticFailureDetector;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptDecision;
import io.routegateway.core.forward.AttemptEvents;
import io.routegateway.core.forward.ChatStreamUsage;
import io.routegateway.core.forward.ClientMessages;
import io.routegateway.core.forward.StreamingPassthrough;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.quota.UsageLimits;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.Router;
import io.routegateway.core.upstream.UpstreamRequest;
import io.routegateway.core.upstream.UpstreamRequests;
import io.routegateway.core.usage.TokenUsage;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.AsyncResult;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

/**
 * One client request's way through the pool: route → attempt → decide (return, retry the same
 * credential after its interval, or record the failure and fail over to the next candidate, the
 * tried ones excluded) → respond → record. A request makes at most one probe of a cooling
 * credential (the cooling fallback): one upstream attempt, and after it no further fallback. Confined to the request's event loop, so its state needs
 * no synchronization. Every decision is route-core's: {@link Router}, {@link
 * OutcomeClassifier}, {@link AttemptDecision}, {@link StreamingPassthrough}, {@link AttemptEvents}.
 *
 * <p>Streaming passthrough commits to the client only after the first chunk has arrived and was
 * not a failure envelope; from then on nothing is retried, the end of the stream is only recorded.
 * The usage record is settled exactly once: on the response's end, on a refusal, or when the
 * client goes away (status 499 if nothing had been sent yet).
 */
final class RequestExchange {

    /** Status recorded when the client went away before any response byte (nginx's convention). */
    static final int CLIENT_CLOSED_REQUEST = 499;

    static final String CLIENT_DISCONNECTED = "client_disconnected";
    static final String INTERNAL_ERROR = "internal_error";
    static final String UPSTREAM_RESPONSE_TOO_LARGE = "upstream_response_too_large";
    /** Marks a count_tokens answer computed by the gateway rather than by the upstream. */
    public static final String ESTIMATE_HEADER = "x-route-token-count";

    private static final Logger LOG = Logger.getLogger(RequestExchange.class);
    /** A stream frame's write is not awaited (see {@link #relay}). */
    private static final Handler<AsyncResult<Void>> NO_COMPLETION = null;

    private final ForwardingService service;
    private final RoutingContext ctx;
    /** The client's request; {@link ProxyRequest#committed() without its body} once a stream is committed. */
    private ProxyRequest request;

    private final HttpServerResponse response;

    private Set<String> tried;
    private RouteResult.Selected selected;
    private int attempts;
    private int retriesUsed;
    private int credentialsTried;
    /** Whether this request has made its one probe of a cooling credential. */
    private boolean probed;

    private Verdict lastFailure;
    /** What the current attempt's request carried: an upstream quoting it is no evidence. */
    private ClientEcho echo = ClientEcho.NONE;

    /** The bridge of the current attempt, null when the credential serves the protocol natively. */
    private Bridge bridge;
    /** The canonical request behind the current bridged attempt (its stream encoder needs it). */
    private ChatRequest canonical;
    /** The bridged answer for the client, converted before the attempt is decided. */
    private Buffer converted;
    /** The local input-token estimate behind a bridged embeddings answer, null otherwise. */
    private Integer estimatedTokens;
    /** Removes the usage frame from a committed native Chat stream whose client did not ask for it. */
    private ChatStreamUsage.Filter usageFrames;
    /** Translates the committed bridged stream frame by frame; null on a native stream. */
    private StreamTranslator translator;

    private Cancellable inFlight;
    private UpstreamStream committedStream;
    /** A committed stream's frames, written once per event-loop turn; null until a stream is committed. */
    private TurnWrites turnWrites;

    private Long ttftMillis;
    private boolean clientGone;
    private boolean settled;

    RequestExchange(ForwardingService service, RoutingContext ctx, ProxyRequest request) {
        this.service = service;
        this.ctx = ctx;
        this.request = request;
        this.response = ctx.response();
    }

    void start() {
        response.closeHandler(ignored -> clientClosed());
        next();
    }

    // ---- routing -----------------------------------------------------------------------------

    private void next() {
        if (clientGone) {
            return;
        }
        if (credentialsTried >= service.maxCredentials) {
            refuse(
                    ReasonCode.NO_AVAILABLE_CREDENTIAL,
                    ReasonCode.NO_AVAILABLE_CREDENTIAL.httpStatus(),
                    ReasonCode.NO_AVAILABLE_CREDENTIAL.meaning() + ": gave up after " + credentialsTried
                            + " credentials" + lastFailureDetail(),
                    null);
            return;
        }
        RouteResult result = Router.route(
                service.views.pool(),
                request.route(),
                tried,
                !probed,
                service.affinity(),
                ThreadLocalRandom.current(),
                service.clock.instant(),
                false);
        if (result instanceof RouteResult.Refused refused) {
            // after a failure in this request (e.g. a quota answer that took the group's only
            // credential out), the refusal says what happened, whatever the pool looks like now
            refuse(
                    refused.code(),
                    refused.httpStatus(),
                    refused.message() + lastFailureDetail(),
                    refused.earliestRecoveryAt());
            return;
        }
        if (selected != null) {
            service.metrics.failover(request.protocol());
        }
        selected = (RouteResult.Selected) result;
        probed |= selected.fromCoolingFallback();
        retriesUsed = 0;
        credentialsTried++;
        attempt();
    }

    // ---- one upstream attempt ----------------------------------------------------------------

    private void attempt() {
        if (clientGone) {
            return;
        }
        attempts++;
        CredentialSnapshot credential = selected.credential();
        Protocol upstreamProtocol = selected.upstreamProtocol();
        bridge = selected.bridged() ? Bridge.between(request.protocol(), upstreamProtocol) : null;
        canonical = null;
        converted = null;
        estimatedTokens = null;
        if (request.countTokens() && bridge != null) {
            estimateTokens();
            return;
        }
        UpstreamRequest upstream;
        try {
            JsonNode body = request.body();
            List<Map.Entry<String, String>> headers = request.clientHeaders();
            if (request.embeddings()) {
                upstream = UpstreamRequests.embeddings(
                        credential.platform(),
                        credential.kind(),
                        credential.baseUrl(),
                        service.secrets.secretOf(credential),
                        upstreamProtocol,
                        body,
                        bridge == null ? headers : bridgedHeaders(headers),
                        selected.upstreamModel());
            } else {
                if (bridge != null) {
                    // converted once per upstream protocol while routing; kept in the plan
                    if (!(request.bridges().conversion(upstreamProtocol)
                            instanceof RequestConversion.Converted conversion)) {
                        throw new IllegalStateException("the request did not convert");
                    }
                    canonical = conversion.request();
                    body = conversion.body();
                    headers = bridgedHeaders(headers);
                }
                upstream = UpstreamRequests.forward(
                        credential.platform(),
                        credential.kind(),
                        credential.baseUrl(),
                        service.secrets.secretOf(credential),
                        upstreamProtocol,
                        body,
                        headers,
                        selected.upstreamModel(),
                        request.clientStream(),
                        credential.oauth() == null ? null : credential.oauth().accountId());
            }
        } catch (RuntimeException e) {
            // the secret does not open or the request cannot be built (or converted): the credential
            // is at fault (request_build is account-scoped)
            decide(
                    new Verdict.Transient(
                            FailureKind.REQUEST_BUILD,
                            null,
                            "could not build the upstream request"
                                    + (bridge == null ? "" : " through the bridge " + bridge.label()) + ": "
                                    + e.getClass().getSimpleName(),
                            null,
                            false),
                    null);
            return;
        }
        if (request.countTokens()) {
            upstream = UpstreamRequests.countTokens(upstream, request.body());
        }
        // what the upstream was sent (the converted body on a bridge) is what it may quote back
        echo = ClientEcho.of(upstream.body(), upstream.url());
        boolean mayStream = request.countTokens() || request.embeddings()
                ? false
                : bridge == null
                        ? StreamingPassthrough.mayStream(
                                false, request.clientStream(), request.customTools(), credential.kind())
                        : StreamingPassthrough.mayTranslate(request.clientStream(), credential.kind());
        Uni<? extends UpstreamResponse> exchange = mayStream
                ? service.upstream.open(upstream, service.timeouts, service.maxResponseBytes)
                : service.upstream.exchange(upstream, service.timeouts, false, service.maxResponseBytes);
        inFlight = exchange.subscribe().with(this::onResponse, this::onInternalError);
    }

    private void onResponse(UpstreamResponse upstreamResponse) {
        inFlight = null;
        if (upstreamResponse instanceof UpstreamResponse.Streaming streaming) {
            UpstreamStream stream = streaming.stream();
            if (clientGone) {
                stream.cancel();
                return;
            }
            service.metrics.upstreamLatency(stream.headNanos());
            if (SemanticFailureDetector.firstChunkIsFailure(stream.firstChunkText())) {
                // a failure envelope in the opening frame: nothing has reached the client, fail over
                stream.cancel();
                decide(
                        OutcomeClassifier.classify(
                                UpstreamOutcome.passthroughStream(
                                        stream.status(), stream.firstChunkText(), false, null, false),
                                echo),
                        null);
                return;
            }
            if (bridge != null) {
                commitTranslated(stream);
            } else {
                commit(stream);
            }
            return;
        }
        if (clientGone) {
            return;
        }
        UpstreamResponse.Complete complete = (UpstreamResponse.Complete) upstreamResponse;
        service.metrics.upstreamLatency(complete.headNanos());
        if (complete.oversize()) {
            tooLarge();
            return;
        }
        // the verdict is the upstream's own answer's; only a usable answer is then converted, and
        // an answer the bridge cannot read is a response_transform failure (model scope)
        Verdict verdict = usageLimited(complete);
        if (bridge != null && request.embeddings() && verdict instanceof Verdict.Success) {
            convertEmbeddings(complete);
            return;
        }
        if (bridge != null && verdict instanceof Verdict.Success) {
            try {
                converted = convertBuffered(complete);
            } catch (RuntimeException e) {
                verdict = responseTransform(complete.status(), e);
            }
        }
        decide(verdict, complete);
    }

    /**
     * An official account's answer read for its platform's usage-limit signal ({@link
     * UsageLimits}): a limit with a reset time becomes a quota verdict that cools the account until
     * the window resets; every other verdict is the classifier's.
     */
    private Verdict usageLimited(UpstreamResponse.Complete complete) {
        CredentialSnapshot credential = selected.credential();
        MultiMap headers = complete.headers();
        return UsageLimits.refine(
                complete.verdict(),
                credential.kind(),
                credential.platform(),
                complete.status(),
                headers::get,
                complete.outcome().body(),
                service.clock.instant(),
                echo);
    }

    /**
     * A Gemini embeddings answer in OpenAI's shape. Gemini reports no tokens, so the usage is the
     * local estimate of the input texts (counted off the event loop when they are large); an
     * answer that is not one vector per input is a {@code response_transform} failure.
     */
    private void convertEmbeddings(UpstreamResponse.Complete complete) {
        List<String> texts = Embeddings.texts(request.body());
        service.tokens.count(
                texts,
                tokens -> {
                    if (clientGone) {
                        return;
                    }
                    Verdict verdict = complete.verdict();
                    try {
                        JsonNode upstreamBody =
                                Json.MAPPER.readTree(complete.body().getBytes());
                        converted = Buffer.buffer(Embeddings.fromGemini(
                                        upstreamBody,
                                        texts.size(),
                                        request.requestedModel(),
                                        Embeddings.base64(request.body()),
                                        tokens)
                                .toString());
                        estimatedTokens = tokens;
                    } catch (IOException e) {
                        verdict = responseTransform(
                                complete.status(), new BridgeException("upstream response is not JSON"));
                    } catch (RuntimeException e) {
                        verdict = responseTransform(complete.status(), e);
                    }
                    decide(verdict, complete);
                },
                this::onInternalError);
    }

    /** The whole bridged answer for the client: one converted document, or a stream translated at once. */
    private Buffer convertBuffered(UpstreamResponse.Complete complete) {
        Instant now = service.clock.instant();
        if (request.clientStream()) {
            StreamTranslator whole = bridge.stream(canonical, now);
            byte[] bytes = complete.body().getBytes();
            List<SseEvent> events = new ArrayList<>(whole.feed(bytes));
            events.addAll(whole.finish());
            return Buffer.buffer(StreamTranslator.wire(events));
        }
        JsonNode upstreamBody;
        try {
            upstreamBody = Json.MAPPER.readTree(complete.body().getBytes());
        } catch (IOException e) {
            throw new BridgeException("upstream response is not JSON");
        }
        return Buffer.buffer(bridge.response(upstreamBody, now).toString());
    }

    private Verdict responseTransform(Integer status, RuntimeException e) {
        String why =
                e instanceof BridgeException ? e.getMessage() : e.getClass().getSimpleName();
        return new Verdict.Transient(
                FailureKind.RESPONSE_TRANSFORM,
                status,
                "the bridge " + bridge.label() + " could not convert the upstream's answer: " + why,
                null,
                false);
    }

    /** A bridged request carries none of the client's protocol headers, only its agent and language. */
    private static List<Map.Entry<String, String>> bridgedHeaders(List<Map.Entry<String, String>> client) {
        List<Map.Entry<String, String>> kept = new ArrayList<>(2);
        for (Map.Entry<String, String> header : client) {
            if (header.getKey().equalsIgnoreCase("user-agent")
                    || header.getKey().equalsIgnoreCase("accept-language")) {
                kept.add(header);
            }
        }
        return kept;
    }

    /** @param complete the buffered response, null when the verdict came from elsewhere */
    private void decide(Verdict classified, UpstreamResponse.Complete complete) {
        CredentialSnapshot credential = selected.credential();
        // upstream text quoting the credential's key never reaches an event, a row or the client
        Verdict verdict = masked(classified);
        AttemptDecision decision =
                AttemptDecision.after(verdict, retriesUsed, credential.failurePolicy(), selected.fromCoolingFallback());
        service.metrics.attempt(
                request.protocol(), decision == AttemptDecision.RETRY_SAME ? "retried" : outcomeLabel(verdict));
        if (AttemptDecision.counts(verdict, decision)) {
            record(verdict);
        }
        switch (decision) {
            case RETURN:
                respond(complete, verdict);
                break;
            case RETRY_SAME:
                retriesUsed++;
                long interval = credential.failurePolicy().retryIntervalMs();
                if (interval <= 0) {
                    attempt();
                } else {
                    service.vertx.setTimer(interval, id -> attempt());
                }
                break;
            default:
                lastFailure = verdict;
                if (tried == null) {
                    tried = new HashSet<>(4);
                }
                tried.add(credential.credentialId());
                next();
        }
    }

    /**
     * Publishes a counted attempt and applies it to this replica's view at once; {@code verdict} is
     * already {@link #masked}.
     */
    private void record(Verdict verdict) {
        Optional<CredentialEvent> event = AttemptEvents.of(
                verdict,
                selected.credential().credentialId(),
                selected.modelKey(),
                EventIds.next(),
                service.clock.instant());
        if (event.isEmpty()) {
            return;
        }
        boolean changedView = service.localOutcomes.apply(event.get());
        boolean success = verdict instanceof Verdict.Success;
        // Every counted success reaches state-service, also one that changes nothing in this
        // replica's view: a failure another replica or recovery-service recorded moments ago may not
        // have reached this view yet, and only state-service knows. Such successes are coalesced per
        // credential and model within gateway.publish.success-window (OutcomePublisher).
        service.outcomes.publish(event.get(), changedView);
        service.window.record(selected.credential().credentialId(), success);
        if (success) {
            Router.rememberSuccess(service.affinity(), request.route(), selected, service.clock.instant());
        }
    }

    // ---- responses ---------------------------------------------------------------------------

    /** A buffered response: success, or a client-side error returned as the upstream sent it. */
    private void respond(UpstreamResponse.Complete complete, Verdict verdict) {
        int status = complete.status();
        boolean success = verdict instanceof Verdict.Success;
        if (bridge != null) {
            respondBridged(complete, success);
            return;
        }
        response.setStatusCode(status);
        copyHeaders(complete.headers(), response, "application/json");
        firstByteSent();
        Buffer body = success ? complete.body() : maskedBody(complete);
        if (success && hidesUsageFrame()) {
            // a stream read whole (an official account): its usage frame is left out the same way
            body = Buffer.buffer(ChatStreamUsage.withoutUsageFrame(body.getBytes()));
        }
        response.end(body);
        // a count_tokens answer's input_tokens were counted, not spent
        settle(
                status,
                null,
                success,
                request.countTokens()
                        ? TokenUsage.UNKNOWN
                        : TokenUsage.fromBody(complete.outcome().body()),
                false);
    }

    /**
     * A bridged buffered answer: the converted success, or the upstream's client-side error re-shaped
     * into the client protocol's envelope (masked first). Usage is read from the upstream's own body,
     * as on a native request.
     */
    private void respondBridged(UpstreamResponse.Complete complete, boolean success) {
        int status = complete.status();
        Buffer body;
        if (success) {
            body = converted;
        } else {
            ErrorReply reply = bridge.error(status, maskedBody(complete).toString(StandardCharsets.UTF_8));
            status = reply.status();
            body = Buffer.buffer(reply.body().toString());
        }
        response.setStatusCode(status);
        copyHeaders(complete.headers(), response, "application/json");
        response.putHeader(
                "content-type", success && request.clientStream() ? "text/event-stream" : "application/json");
        TokenUsage usage = TokenUsage.fromBody(complete.outcome().body());
        if (success && estimatedTokens != null) {
            // embeddings through the bridge: the upstream did not count, the gateway estimated
            response.putHeader(ESTIMATE_HEADER, "estimate");
            usage = new TokenUsage((long) estimatedTokens, 0L);
        }
        firstByteSent();
        response.end(body);
        settle(status, null, success, usage, false);
    }

    /**
     * count_tokens (Anthropic) or countTokens (Gemini) on a credential that does not speak the
     * client's protocol: answered here with the local estimate, in the client protocol's shape. No upstream is called, so nothing is recorded for the credential and the
     * usage record carries no tokens (nothing was spent).
     */
    private void estimateTokens() {
        boolean gemini = request.protocol() == Protocol.GEMINI;
        JsonNode body = request.body();
        // counted off the event loop when the body is large (a string is never longer than its bytes)
        service.tokens.count(
                request.bodyBytes(),
                () -> gemini ? TokenEstimator.geminiInputTokens(body) : TokenEstimator.inputTokens(body),
                tokens -> {
                    if (clientGone) {
                        return;
                    }
                    response.setStatusCode(200)
                            .putHeader("content-type", "application/json")
                            .putHeader(ESTIMATE_HEADER, "estimate");
                    firstByteSent();
                    response.end(Json.MAPPER
                            .createObjectNode()
                            .put(gemini ? "totalTokens" : "input_tokens", tokens)
                            .toString());
                    settle(200, null, true, TokenUsage.UNKNOWN, false);
                },
                this::onInternalError);
    }

    /**
     * Whether this native answer is an OpenAI Chat stream whose client did not ask for usage: the
     * upstream was asked for it (to settle the tokens), the client does not see its usage frame.
     */
    private boolean hidesUsageFrame() {
        return bridge == null
                && request.protocol() == Protocol.OPENAI_CHAT
                && ChatStreamUsage.hidesUsageFrame(request.body(), request.clientStream());
    }

    /** Streaming passthrough from here on: the first chunk goes to the client now. */
    private void commit(UpstreamStream stream) {
        committedStream = stream;
        // decided once per stream; without it every chunk goes out as it came
        ChatStreamUsage.Filter usageFrames = hidesUsageFrame() ? new ChatStreamUsage.Filter() : null;
        this.usageFrames = usageFrames;
        request = request.committed();
        response.setStatusCode(stream.status());
        copyHeaders(stream.headers(), response, "text/event-stream");
        response.putHeader("cache-control", "no-cache");
        response.setChunked(true);
        ClientFlushes.consolidate(ctx.request());
        turnWrites = new TurnWrites(ctx.vertx().getOrCreateContext(), this::writeFrames);
        firstByteSent();
        writeThrough(usageFrames, stream.firstChunk(), stream.firstChunkBytes());
        stream.start(
                (chunk, bytes) -> {
                    writeThrough(usageFrames, chunk, bytes);
                    if (response.writeQueueFull()) {
                        stream.pause();
                        response.drainHandler(ignored -> stream.resume());
                    }
                },
                this::streamEnded);
    }

    /** @param bytes the chunk's bytes, the stream's own copy (read, never changed) */
    private void writeThrough(ChatStreamUsage.Filter usageFrames, Buffer chunk, byte[] bytes) {
        if (usageFrames == null) {
            relay(chunk);
            return;
        }
        byte[] in = bytes;
        byte[] out = usageFrames.feed(in);
        if (out == in) {
            // the common case, a chunk of whole frames without the usage frame: it goes out as it came
            relay(chunk);
        } else if (out.length > 0) {
            relay(Buffer.buffer(out));
        }
    }

    /** One frame of a committed stream for the client: written with the rest of this turn's ({@link TurnWrites}). */
    private void relay(Buffer frame) {
        turnWrites.add(frame);
    }

    /**
     * Writes a turn's frames without asking for completion: nothing waits on it (a broken client
     * connection reaches {@link #clientClosed}, backpressure is {@code writeQueueFull}), and without
     * a handler Vert.x writes with Netty's void promise instead of a promise and a listener per write.
     */
    private void writeFrames(Buffer turn) {
        if (!clientGone && !response.ended()) {
            response.write(turn, NO_COMPLETION);
        }
    }

    /**
     * A bridged stream from here on: each upstream chunk is translated as it arrives (the
     * translator keeps only the unfinished line and the open block), so the client's first token
     * leaves with the upstream's. A first chunk the bridge cannot read fails over like a failure
     * envelope (nothing has reached the client); a later one ends the client's stream without its
     * terminal event and is recorded as {@code response_transform}.
     */
    private void commitTranslated(UpstreamStream stream) {
        StreamTranslator frames = bridge.stream(canonical, service.clock.instant());
        String first;
        try {
            first = StreamTranslator.wire(frames.feed(stream.firstChunkBytes()));
        } catch (RuntimeException e) {
            stream.cancel();
            decide(responseTransform(stream.status(), e), null);
            return;
        }
        committedStream = stream;
        translator = frames;
        request = request.committed();
        canonical = null;
        response.setStatusCode(stream.status());
        copyHeaders(stream.headers(), response, "text/event-stream");
        response.putHeader("content-type", "text/event-stream");
        response.putHeader("cache-control", "no-cache");
        response.setChunked(true);
        ClientFlushes.consolidate(ctx.request());
        turnWrites = new TurnWrites(ctx.vertx().getOrCreateContext(), this::writeFrames);
        firstByteSent();
        if (!first.isEmpty()) {
            relay(Buffer.buffer(first));
        }
        stream.start(
                (chunk, bytes) -> {
                    String out;
                    try {
                        out = StreamTranslator.wire(frames.feed(bytes));
                    } catch (RuntimeException e) {
                        translationFailed(stream, e);
                        return;
                    }
                    if (!out.isEmpty()) {
                        relay(Buffer.buffer(out));
                    }
                    if (response.writeQueueFull()) {
                        stream.pause();
                        response.drainHandler(ignored -> stream.resume());
                    }
                },
                this::streamEnded);
    }

    /** An upstream frame the bridge cannot read after the client has bytes: recorded, not retried. */
    private void translationFailed(UpstreamStream stream, RuntimeException e) {
        stream.cancel();
        if (clientGone || settled) {
            return;
        }
        turnWrites.writeNow();
        response.end();
        Verdict verdict = masked(responseTransform(stream.status(), e));
        service.metrics.attempt(request.protocol(), outcomeLabel(verdict));
        record(verdict);
        settle(stream.status(), failureLabel(verdict), false, stream.usageSoFar(), false);
    }

    /**
     * After the first chunk a failure is only recorded, never retried: the client has the bytes.
     * The verdict is the upstream stream's own (its terminal marker, its failure frames), bridged or
     * not.
     */
    private void streamEnded(UpstreamOutcome outcome) {
        if (clientGone) {
            return;
        }
        Verdict transformFailure = null;
        if (usageFrames != null) {
            byte[] rest = usageFrames.finish();
            if (rest.length > 0) {
                relay(Buffer.buffer(rest));
            }
        }
        if (translator != null) {
            try {
                String tail = StreamTranslator.wire(translator.finish());
                if (!tail.isEmpty()) {
                    relay(Buffer.buffer(tail));
                }
            } catch (RuntimeException e) {
                transformFailure = responseTransform(outcome.status(), e);
            }
        }
        turnWrites.writeNow();
        response.end();
        Verdict classified = OutcomeClassifier.classify(outcome, echo);
        Verdict verdict = masked(
                transformFailure != null && classified instanceof Verdict.Success ? transformFailure : classified);
        service.metrics.attempt(request.protocol(), outcomeLabel(verdict));
        record(verdict);
        boolean success = verdict instanceof Verdict.Success;
        settle(outcome.status(), success ? null : failureLabel(verdict), success, committedStream.usageSoFar(), false);
    }

    /**
     * The upstream's answer passed {@code gateway.upstream.max-response-size}: the client gets 502,
     * nothing is retried (another credential would answer the same request as largely) and nothing is
     * recorded for the credential (the size of an answer is no evidence about it).
     */
    private void tooLarge() {
        service.metrics.attempt(request.protocol(), UPSTREAM_RESPONSE_TOO_LARGE);
        sendError(
                502,
                UPSTREAM_RESPONSE_TOO_LARGE,
                "the upstream's answer exceeds " + service.maxResponseBytes
                        + " bytes (gateway.upstream.max-response-size); ask for a streamed answer or a"
                        + " smaller one",
                "api_error");
    }

    private void refuse(ReasonCode code, int status, String message, Instant earliestRecovery) {
        if (earliestRecovery != null) {
            long seconds =
                    Duration.between(service.clock.instant(), earliestRecovery).toMillis();
            response.putHeader("retry-after", Long.toString(Math.max(1, (seconds + 999) / 1000)));
        }
        sendError(status, code.wire(), message, code.errorType());
    }

    private void sendError(int status, String code, String message, String type) {
        response.setStatusCode(status).putHeader("content-type", "application/json");
        response.end(ErrorBodies.of(request.protocol(), status, code, message, type));
        settle(status, code, false, TokenUsage.UNKNOWN, false);
    }

    private void onInternalError(Throwable failure) {
        inFlight = null;
        LOG.errorf(failure, "Forwarding request %s failed inside the gateway", request.requestId());
        if (clientGone || settled) {
            return;
        }
        if (committedStream != null) {
            committedStream.cancel();
            turnWrites.discard();
            response.reset();
            settle(response.getStatusCode(), INTERNAL_ERROR, false, TokenUsage.UNKNOWN, false);
            return;
        }
        sendError(500, INTERNAL_ERROR, "the gateway failed to forward the request", "api_error");
    }

    private void clientClosed() {
        // an HTTP/2 stream closes inside end(), before the request is settled: that is no disconnect
        if (settled || clientGone || response.ended()) {
            return;
        }
        clientGone = true;
        if (inFlight != null) {
            inFlight.cancel();
            inFlight = null;
        }
        if (committedStream != null) {
            TokenUsage usage = committedStream.usageSoFar();
            committedStream.cancel();
            settle(committedStream.status(), CLIENT_DISCONNECTED, false, usage, true);
            return;
        }
        settle(CLIENT_CLOSED_REQUEST, CLIENT_DISCONNECTED, false, TokenUsage.UNKNOWN, true);
    }

    // ---- records -----------------------------------------------------------------------------

    private void firstByteSent() {
        long nanos = System.nanoTime() - request.arrivedNanos();
        ttftMillis = nanos / 1_000_000;
        service.metrics.ttft(nanos);
    }

    /** The one usage record of this request. */
    private void settle(int status, String reasonCode, boolean success, TokenUsage usage, boolean disconnected) {
        if (settled) {
            return;
        }
        settled = true;
        Instant now = service.clock.instant();
        service.metrics.request(request.protocol(), status, reasonCode);
        service.usage.publish(RequestCompleted.settled(
                request.requestId(),
                now,
                request.protocol(),
                request.accessKey().accessKeyId(),
                selected == null ? null : selected.group().groupId(),
                selected == null ? null : selected.credential().credentialId(),
                request.requestedModel(),
                selected == null ? null : selected.modelKey(),
                attempts,
                status,
                reasonCode,
                (System.nanoTime() - request.arrivedNanos()) / 1_000_000,
                ttftMillis,
                usage.inputTokens(),
                usage.outputTokens(),
                request.clientStream(),
                disconnected,
                success));
    }

    /** {@code verdict} with the selected credential's secret masked in its message and body. */
    private Verdict masked(Verdict verdict) {
        if (!verdict.isFailure()) {
            return verdict;
        }
        try {
            return SecretMask.apply(verdict, service.secrets.secretOf(selected.credential()));
        } catch (RuntimeException unopenable) {
            return verdict; // nothing was sent with a secret that does not open
        }
    }

    /**
     * A client-side error body as the upstream sent it, except for the selected credential's secret
     * and base URL (an upstream quoting the URL it was called on names an internal host).
     */
    private Buffer maskedBody(UpstreamResponse.Complete complete) {
        String text = complete.body().toString(StandardCharsets.UTF_8);
        String baseUrl = selected.credential().baseUrl();
        String masked = baseUrl == null ? text : SecretMask.apply(text, stripTrailingSlash(baseUrl));
        try {
            masked = SecretMask.apply(masked, service.secrets.secretOf(selected.credential()));
        } catch (RuntimeException unopenable) {
            // nothing was sent with a secret that does not open
        }
        return masked == text ? complete.body() : Buffer.buffer(masked);
    }

    /**
     * The reason of this request's last failure for the client's error message, empty when nothing
     * failed; already {@link #masked}, with the credential's base URL masked too, never a transport
     * error's text (it names hosts and ports).
     */
    private String lastFailureDetail() {
        String detail = ClientMessages.lastFailure(lastFailure);
        if (detail == null) {
            return "";
        }
        String baseUrl = selected == null ? null : selected.credential().baseUrl();
        return "; last failure: " + (baseUrl == null ? detail : SecretMask.apply(detail, stripTrailingSlash(baseUrl)));
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    static String outcomeLabel(Verdict verdict) {
        if (verdict instanceof Verdict.Success) {
            return "success";
        }
        if (verdict instanceof Verdict.NotAFailure) {
            return "not_a_failure";
        }
        if (verdict instanceof Verdict.Permanent) {
            return "permanent";
        }
        if (verdict instanceof Verdict.QuotaExhausted) {
            return "quota";
        }
        return "transient";
    }

    private static String failureLabel(Verdict verdict) {
        if (verdict instanceof Verdict.Transient failure) {
            return failure.kind().label();
        }
        if (verdict instanceof Verdict.Permanent failure) {
            return failure.kind().label();
        }
        if (verdict instanceof Verdict.QuotaExhausted quota) {
            return quota.kind().label();
        }
        return null;
    }

    /** The upstream headers a client may see: its content type and request ids. */
    private static void copyHeaders(MultiMap from, HttpServerResponse to, String defaultContentType) {
        String contentType = from.get("content-type");
        to.putHeader("content-type", contentType == null ? defaultContentType : contentType);
        String requestId = from.get("request-id");
        if (requestId != null) {
            to.putHeader("request-id", requestId);
        }
        String xRequestId = from.get("x-request-id");
        if (xRequestId != null) {
            to.putHeader("x-request-id", xRequestId);
        }
    }
}
