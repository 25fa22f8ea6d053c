package io.routegateway.gateway.forward;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.routegateway.common.upstream.UpstreamResponse;
import io.routegateway.common.upstream.UpstreamStream;
import io.routegateway.core.event.AttemptStep;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.failure.SemanticFailureDetector;
import io.routegateway.core.failure.UpstreamOutcome;
import io.routegateway.core.failure.Verdict;
import io.routegateway.core.forward.AttemptChain;
import io.routegateway.core.forward.AttemptDecision;
import io.routegateway.core.forward.AttemptPlan;
import io.routegateway.core.forward.AttemptVerdict;
import io.routegateway.core.forward.ClientMessages;
import io.routegateway.core.forward.Refusal;
import io.routegateway.core.limits.SlotWait;
import io.routegateway.core.select.FullCredentials;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.Router;
import io.routegateway.core.telemetry.ResponseModel;
import io.routegateway.core.usage.TokenUsage;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.Logger;

/**
 * One client request's way through the pool, as a state machine: next (route) → attempt (plan and
 * send) → answer (the upstream's response) → decide (return, retry the same credential after its
 * interval, or record the failure and fail over to the next candidate, the tried ones excluded) →
 * respond (one of the responders) → settle (once). A request makes at most one probe of a cooling
 * credential (the cooling fallback). Confined to the request's event loop, so its state needs no
 * synchronization. Every decision is route-core's ({@link Router}, {@link AttemptPlan}, {@link
 * AttemptVerdict}, {@link AttemptDecision}); how an answer is written is the responders' ({@link
 * BufferedAnswer}, {@link PassthroughStream}, {@link TranslatedStream}, {@link LocalEstimate}).
 *
 * <p>Each upstream attempt on a credential with limits of its own holds an ATTEMPT lease from its
 * send to its end (the whole answer read, the stream over, or abandoned), and routing skips the
 * credentials at those limits ({@code credential_full}).
 *
 * <p>A stream is committed to the client only after its first data chunk has arrived and was not a
 * failure envelope; from then on nothing is retried, the end of the stream is only recorded. The
 * usage record is settled exactly once: on the response's end, on a refusal, or when the client
 * goes away (status 499 if nothing had been sent yet).
 */
final class RequestExchange {

    /** Status recorded when the client went away before any response byte (nginx's convention). */
    static final int CLIENT_CLOSED_REQUEST = 499;

    static final String CLIENT_DISCONNECTED = "client_disconnected";

    private static final Logger LOG = Logger.getLogger(RequestExchange.class);

    private final Forwarding f;
    private final RoutingContext ctx;
    private final HttpServerResponse response;
    private final Settlement settlement;
    /** The client's request; without its body once a stream is committed ({@link ProxyRequest#committed}). */
    private ProxyRequest request;

    private Set<String> tried;
    private RouteResult.Selected selected;
    private CredentialMask mask;
    private int attempts;
    private int retriesUsed;
    private int credentialsTried;
    /** Whether this request has made its one probe of a cooling credential. */
    private boolean probed;

    private Verdict lastFailure;

    /** The attempts made so far, for the usage record. */
    private final AttemptChain chain = new AttemptChain();
    /** When the current upstream attempt was sent ({@code System.nanoTime()}); -1 when none is open. */
    private long attemptSentNanos = -1;

    /** The current attempt's plan. */
    private AttemptPlan.Send plan;
    /** The current attempt's lease on a credential with limits of its own; null when none is open. */
    private LeaseEvent attemptLease;

    /** The client request's trace context: its server span, the parent of the attempts' spans. */
    private final Context trace;
    /** The current upstream attempt's span; the invalid span when none is open or tracing is off. */
    private Span attemptSpan = Span.getInvalid();

    private Cancellable inFlight;
    private StreamAnswer committed;
    private boolean clientGone;
    /** When this request began to wait for a slot ({@link SlotWait}); -1 while it has not. */
    private long waitingSince = -1;

    RequestExchange(Forwarding f, Settlement settlement, RoutingContext ctx, ProxyRequest request, Context trace) {
        this.f = f;
        this.trace = trace;
        this.settlement = settlement;
        this.ctx = ctx;
        this.request = request;
        this.response = ctx.response();
    }

    void start() {
        response.closeHandler(ignored -> clientClosed());
        next();
    }

    private void next() {
        if (clientGone) {
            return;
        }
        if (credentialsTried >= f.maxCredentials()) {
            refuse(Refusal.gaveUp(credentialsTried, lastFailure()), null);
            return;
        }
        RouteResult result = Router.route(
                f.views().pool(),
                request.route(),
                tried,
                !probed,
                f.leases().fullCredentials(),
                f.affinity().get(),
                ThreadLocalRandom.current(),
                f.clock().instant(),
                false);
        if (result instanceof RouteResult.Refused refused) {
            long pause = slotWait(refused);
            if (pause != SlotWait.GIVE_UP) {
                f.vertx().setTimer(pause, id -> next());
                return;
            }
            // after a failure in this request (e.g. a quota answer that took the group's only
            // credential out), the refusal says what happened, whatever the pool looks like now
            refuse(
                    new Refusal(
                            refused.httpStatus(),
                            refused.code().wire(),
                            refused.message() + lastFailure(),
                            refused.code().errorType()),
                    refused.earliestRecoveryAt());
            return;
        }
        if (selected != null) {
            f.metrics().failover(request.protocol(), lastFailure, selected.modelKey());
        }
        selected = (RouteResult.Selected) result;
        mask = new CredentialMask(f.secrets(), selected.credential());
        probed |= selected.fromCoolingFallback();
        retriesUsed = 0;
        credentialsTried++;
        attempt();
    }

    /**
     * The pause before routing again when only credentials at their own limits are in the way
     * (route-core {@link SlotWait}), or {@link SlotWait#GIVE_UP}. Asked only of a refusal, so the
     * second routing (the full ones counted as free) costs nothing on the served path.
     */
    private long slotWait(RouteResult.Refused refused) {
        if (f.slotWaitMillis() <= 0 || refused.code() != ReasonCode.NO_AVAILABLE_CREDENTIAL) {
            return SlotWait.GIVE_UP;
        }
        long now = f.clock().millis();
        boolean onlyFull = Router.route(
                        f.views().pool(),
                        request.route(),
                        tried,
                        !probed,
                        FullCredentials.NONE,
                        null,
                        ThreadLocalRandom.current(),
                        f.clock().instant(),
                        false)
                instanceof RouteResult.Selected;
        boolean first = waitingSince < 0;
        if (first) {
            waitingSince = now;
        }
        long pause = SlotWait.nextTryInMillis(onlyFull, now - waitingSince, f.slotWaitMillis());
        if (onlyFull && (first || pause == SlotWait.GIVE_UP)) {
            f.metrics().slotWait(pause == SlotWait.GIVE_UP);
        }
        return pause;
    }

    private void attempt() {
        if (clientGone) {
            return;
        }
        attempts++;
        attemptSentNanos = System.nanoTime();
        CredentialSnapshot credential = selected.credential();
        AttemptPlan next = AttemptPlan.of(
                request.attemptInput(), selected, () -> f.secrets().secretOf(credential));
        if (next instanceof AttemptPlan.LocalEstimate) {
            attemptSentNanos = -1; // answered here: no upstream attempt in the chain
            LocalEstimate.answer(
                    f.tokens(),
                    request,
                    response,
                    settlement,
                    () -> clientGone,
                    () -> settle(200, null, true, TokenUsage.UNKNOWN, false),
                    this::onInternalError);
            return;
        }
        if (next instanceof AttemptPlan.Unbuildable unbuildable) {
            plan = null;
            decide(unbuildable.verdict(), null, null);
            return;
        }
        plan = (AttemptPlan.Send) next;
        closeAttempt();
        abandonAttemptSpan("superseded");
        attemptSpan = f.tracing()
                .attemptStarted(
                        trace,
                        request.operation(),
                        selected.upstreamProtocol(),
                        credential,
                        selected.group().groupId(),
                        selected.modelKey(),
                        selected.upstreamModel(),
                        attempts,
                        plan.bridge() == null ? null : plan.bridge().label());
        attemptLease = f.leases()
                .openAttempt(
                        credential,
                        request.accessKey().accessKeyId(),
                        request.admission().teamId());
        Uni<? extends UpstreamResponse> exchange = plan.mayStream()
                ? f.upstream().open(plan.request(), f.timeouts(), f.maxResponseBytes())
                : f.upstream().exchange(plan.request(), f.timeouts(), false, f.maxResponseBytes());
        inFlight = exchange.subscribe().with(this::answer, this::onInternalError);
    }

    /** The upstream's response: a stream whose first data chunk has arrived, or a whole answer. */
    private void answer(UpstreamResponse upstreamResponse) {
        inFlight = null;
        if (upstreamResponse instanceof UpstreamResponse.Streaming streaming) {
            answerStream(streaming.stream());
            return;
        }
        // the whole answer is in: the attempt no longer holds the credential
        closeAttempt();
        if (clientGone) {
            return;
        }
        UpstreamResponse.Complete complete = (UpstreamResponse.Complete) upstreamResponse;
        f.metrics().upstreamLatency(complete.headNanos());
        if (complete.oversize()) {
            f.metrics().attempt(request.protocol(), Refusal.UPSTREAM_RESPONSE_TOO_LARGE);
            abandonAttemptSpan(Refusal.UPSTREAM_RESPONSE_TOO_LARGE);
            chainEnded(complete.status(), Refusal.UPSTREAM_RESPONSE_TOO_LARGE);
            refuse(Refusal.upstreamTooLarge(f.maxResponseBytes()), null);
            return;
        }
        BufferedAnswer.judge(
                complete,
                plan,
                request,
                selected.credential(),
                f,
                () -> clientGone,
                judged -> decide(judged.verdict(), complete, judged),
                this::onInternalError);
    }

    private void answerStream(UpstreamStream stream) {
        if (clientGone) {
            stream.cancel();
            closeAttempt();
            return;
        }
        f.metrics().upstreamLatency(stream.headNanos());
        if (SemanticFailureDetector.firstChunkIsFailure(stream.firstChunkText())) {
            // a failure envelope in the opening frame: nothing has reached the client, fail over
            stream.cancel();
            closeAttempt();
            decide(
                    verdictOf(
                            stream,
                            UpstreamOutcome.passthroughStream(
                                    stream.status(), stream.firstChunkText(), false, null, false),
                            null),
                    null,
                    null);
            return;
        }
        StreamAnswer answer = plan.bridge() == null
                ? new PassthroughStream(
                        stream, response, mask.stream(), request.hidesUsageFrame(false), this::streamEnded)
                : new TranslatedStream(
                        stream,
                        response,
                        mask.stream(),
                        plan.bridge().stream(plan.canonical(), f.clock().instant()),
                        this::streamEnded);
        Buffer first;
        try {
            first = answer.frames(stream.firstChunk(), stream.firstChunkBytes());
        } catch (RuntimeException e) {
            // a first chunk the bridge cannot read fails over like a failure envelope
            stream.cancel();
            closeAttempt();
            decide(transformFailure(stream.status(), e), null, null);
            return;
        }
        committed = answer;
        // nothing is retried any more: the prompt, the upstream request and its conversion go
        request = request.committed();
        plan = new AttemptPlan.Send(null, true, plan.bridge(), null, plan.echo());
        answer.commit(ctx, settlement, first, plan.bridge() == null ? null : "text/event-stream");
    }

    /**
     * Return, retry the same credential after its interval, or record the failure and fail over.
     *
     * @param judged the whole answer judged and converted; null when the verdict came from a first
     *     chunk or a plan (never returned: those are failures)
     */
    private void decide(Verdict classified, UpstreamResponse.Complete complete, BufferedAnswer.Judged judged) {
        CredentialSnapshot credential = selected.credential();
        // upstream text quoting the credential's key never reaches an event, a row or the client
        Verdict verdict = mask.verdict(classified);
        AttemptDecision decision =
                AttemptDecision.after(verdict, retriesUsed, credential.failurePolicy(), selected.fromCoolingFallback());
        String outcome = decision == AttemptDecision.RETRY_SAME ? "retried" : verdict.outcomeLabel();
        chain.add(AttemptChain.step(
                verdict,
                credential.credentialId(),
                selected.modelKey(),
                complete == null ? null : complete.status(),
                attemptMillis(),
                decision,
                mask::baseUrl));
        attemptSentNanos = -1;
        f.metrics().attempt(request.protocol(), outcome);
        if (AttemptDecision.counts(verdict, decision)) {
            f.recorder().record(verdict, selected, request.route(), attemptContext());
        }
        switch (decision) {
            case RETURN -> {
                BufferedAnswer.Sent sent = BufferedAnswer.send(
                        response, settlement, complete, verdict, judged, plan.bridge(), mask, request);
                endAttemptSpan(
                        verdict,
                        outcome,
                        sent.tokens(),
                        () -> complete.body() == null
                                ? null
                                : ResponseModel.of(complete.body().toString()));
                settle(sent.status(), null, sent.success(), sent.tokens(), false);
            }
            case RETRY_SAME -> {
                endAttemptSpan(verdict, outcome, null);
                retriesUsed++;
                long interval = credential.failurePolicy().retryIntervalMs();
                if (interval <= 0) {
                    attempt();
                } else {
                    f.vertx().setTimer(interval, id -> attempt());
                }
            }
            default -> {
                endAttemptSpan(verdict, outcome, null);
                lastFailure = verdict;
                if (tried == null) {
                    tried = new HashSet<>(4);
                }
                tried.add(credential.credentialId());
                next();
            }
        }
    }

    /**
     * After the first chunk a failure is only recorded, never retried: the client has the bytes.
     * The verdict is the upstream stream's own (its terminal marker, its failure frames), bridged or
     * not; a bridge that broke the client's stream is a {@code response_transform} failure.
     */
    private void streamEnded(StreamAnswer answer, StreamAnswer.End end) {
        closeAttempt();
        int status = answer.stream.status();
        Verdict verdict = end.outcome() == null
                ? transformFailure(status, end.transformFailure())
                : verdictOf(answer.stream, end.outcome(), end.transformFailure());
        verdict = mask.verdict(verdict);
        chain.add(AttemptChain.step(
                verdict,
                selected.credential().credentialId(),
                selected.modelKey(),
                status,
                attemptMillis(),
                verdict instanceof Verdict.Success ? AttemptStep.SUCCESS : AttemptStep.GIVE_UP,
                mask::baseUrl));
        attemptSentNanos = -1;
        f.metrics().attempt(request.protocol(), verdict.outcomeLabel());
        f.recorder().record(verdict, selected, request.route(), attemptContext());
        endAttemptSpan(verdict, verdict.outcomeLabel(), answer.stream.usageSoFar(), answer.stream::responseModel);
        boolean success = verdict instanceof Verdict.Success;
        settle(status, success ? null : verdict.failureLabel(), success, answer.stream.usageSoFar(), false);
    }

    /** The gateway's answer after routing: the pool has nothing, or the answer was too large. */
    private void refuse(Refusal refusal, Instant earliestRecovery) {
        chain.gaveUp();
        f.tracing().refused(trace, refusal.code());
        Refusals.write(
                response,
                request.protocol(),
                refusal,
                earliestRecovery,
                f.clock().instant());
        settle(refusal.status(), refusal.code(), false, TokenUsage.UNKNOWN, false);
    }

    private void onInternalError(Throwable failure) {
        inFlight = null;
        closeAttempt();
        abandonAttemptSpan(Refusal.INTERNAL_ERROR);
        chainEnded(null, Refusal.INTERNAL_ERROR);
        LOG.errorf(failure, "Forwarding request %s failed inside the gateway", request.requestId());
        if (clientGone || settlement.settled()) {
            return;
        }
        if (committed != null) {
            committed.reset();
            settle(response.getStatusCode(), Refusal.INTERNAL_ERROR, false, TokenUsage.UNKNOWN, false);
            return;
        }
        refuse(Refusal.internalError(), null);
    }

    private void clientClosed() {
        // an HTTP/2 stream closes inside end(), before the request is settled: that is no disconnect
        if (settlement.settled() || clientGone || response.ended()) {
            return;
        }
        clientGone = true;
        abandonAttemptSpan(CLIENT_DISCONNECTED);
        chainEnded(committed == null ? null : committed.stream.status(), CLIENT_DISCONNECTED);
        if (inFlight != null) {
            inFlight.cancel();
            inFlight = null;
        }
        closeAttempt();
        if (committed != null) {
            TokenUsage usage = committed.stream.usageSoFar();
            committed.clientGone();
            settle(committed.stream.status(), CLIENT_DISCONNECTED, false, usage, true);
            return;
        }
        settle(CLIENT_CLOSED_REQUEST, CLIENT_DISCONNECTED, false, TokenUsage.UNKNOWN, true);
    }

    private void settle(int status, String reasonCode, boolean success, TokenUsage tokens, boolean disconnected) {
        closeAttempt();
        abandonAttemptSpan("settled");
        settlement.settle(selected, attempts, status, reasonCode, success, tokens, disconnected, chain.steps());
    }

    /** Milliseconds since the current attempt was sent. */
    private long attemptMillis() {
        return attemptSentNanos < 0 ? 0 : (System.nanoTime() - attemptSentNanos) / 1_000_000;
    }

    /** The open attempt, if any, ended inside the gateway for {@code reason}: it joins the chain as given up. */
    private void chainEnded(Integer status, String reason) {
        if (attemptSentNanos < 0 || selected == null) {
            return;
        }
        chain.add(AttemptChain.ended(
                selected.credential().credentialId(), selected.modelKey(), status, attemptMillis(), reason));
        attemptSentNanos = -1;
    }

    /** The current attempt's trace context: its outcome record is sent in it (the Kafka record's traceparent). */
    private Context attemptContext() {
        return attemptSpan.getSpanContext().isValid() ? trace.with(attemptSpan) : trace;
    }

    /** Ends the current attempt's span with its verdict, if one is open. */
    private void endAttemptSpan(Verdict verdict, String outcome, TokenUsage tokens) {
        endAttemptSpan(verdict, outcome, tokens, null);
    }

    /**
     * @param responseModel reads the model the upstream says it answered with ({@code
     *     gen_ai.response.model}), null if none; read only when the attempt's span is recorded
     */
    private void endAttemptSpan(Verdict verdict, String outcome, TokenUsage tokens, Supplier<String> responseModel) {
        Span span = attemptSpan;
        attemptSpan = Span.getInvalid();
        String answered = responseModel != null && span.isRecording() ? responseModel.get() : null;
        f.tracing().attemptEnded(trace, span, verdict, outcome, selected.modelKey(), tokens, answered);
    }

    /** Ends the current attempt's span without a verdict, if one is open. */
    private void abandonAttemptSpan(String reason) {
        Span span = attemptSpan;
        attemptSpan = Span.getInvalid();
        f.tracing().attemptAbandoned(span, reason);
    }

    /** Ends the current attempt's lease, if one is open. */
    private void closeAttempt() {
        if (attemptLease != null) {
            LeaseEvent ended = attemptLease;
            attemptLease = null;
            f.leases().closeAttempt(ended);
        }
    }

    /** The attempt's verdict on a stream ({@link AttemptVerdict}), a bridge failure replacing only a success. */
    private Verdict verdictOf(UpstreamStream stream, UpstreamOutcome outcome, RuntimeException bridgeFailure) {
        CredentialSnapshot credential = selected.credential();
        return AttemptVerdict.of(
                outcome,
                plan.echo(),
                credential.kind(),
                credential.platform(),
                stream.headers()::get,
                f.clock().instant(),
                bridgeFailure == null
                        ? null
                        : AttemptVerdict.BridgeFailure.of(plan.bridge().label(), bridgeFailure));
    }

    private Verdict transformFailure(Integer status, RuntimeException e) {
        return AttemptVerdict.BridgeFailure.of(plan.bridge().label(), e).verdict(status);
    }

    /**
     * The reason of this request's last failure for the client's error message, empty when nothing
     * failed; already masked, with the credential's base URL masked too, never a transport error's
     * text (it names hosts and ports).
     */
    private String lastFailure() {
        String detail = ClientMessages.lastFailure(lastFailure);
        return detail == null ? "" : "; last failure: " + (mask == null ? detail : mask.baseUrl(detail));
    }
}
