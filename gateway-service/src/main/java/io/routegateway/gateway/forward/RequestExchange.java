package io.routegateway.gateway.forward;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.routegateway.common.upstream.UpstreamResponse;
import io.routegateway.common.upstream.UpstreamStream;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
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
import io.routegateway.core.forward.ClientMessages;
import io.routegateway.core.forward.StreamingPassthrough;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteResult;
import io.routegateway.core.select.Router;
import io.routegateway.core.upstream.UpstreamRequest;
import io.routegateway.core.upstream.UpstreamRequests;
import io.routegateway.core.usage.TokenUsage;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
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

    private static final Logger LOG = Logger.getLogger(RequestExchange.class);

    private final ForwardingService service;
    private final RoutingContext ctx;
    private final ProxyRequest request;
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

    private Cancellable inFlight;
    private UpstreamStream committedStream;
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
            refuse(refused.code(), refused.message() + lastFailureDetail(), refused.earliestRecoveryAt());
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
        UpstreamRequest upstream;
        try {
            upstream = UpstreamRequests.forward(
                    credential.platform(),
                    credential.kind(),
                    credential.baseUrl(),
                    service.secrets.secretOf(credential),
                    request.protocol(),
                    request.body(),
                    request.clientHeaders(),
                    selected.upstreamModel(),
                    request.clientStream());
        } catch (RuntimeException e) {
            // the secret does not open or the request cannot be built: the credential is at fault
            decide(
                    new Verdict.Transient(
                            FailureKind.REQUEST_BUILD,
                            null,
                            "could not build the upstream request: "
                                    + e.getClass().getSimpleName(),
                            null,
                            false),
                    null);
            return;
        }
        echo = ClientEcho.of(upstream.body(), upstream.url());
        boolean mayStream =
                StreamingPassthrough.mayStream(false, request.clientStream(), request.customTools(), credential.kind());
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
            commit(stream);
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
        decide(complete.verdict(), complete);
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
                RequestIds.next(),
                service.clock.instant());
        if (event.isEmpty()) {
            return;
        }
        service.localOutcomes.apply(event.get());
        boolean success = verdict instanceof Verdict.Success;
        // Every counted success is published, also one that changes nothing in this replica's view:
        // a failure another replica or recovery-service recorded moments ago may not have reached
        // this view yet, and only state-service knows. It acknowledges a success that changes
        // nothing after one read, writing nothing (docs/state-service.md, "Successes").
        service.outcomes.publish(event.get());
        service.window.record(selected.credential().credentialId(), success);
        if (success) {
            Router.rememberSuccess(service.affinity(), request.route(), selected, service.clock.instant());
        }
    }

    // ---- responses ---------------------------------------------------------------------------

    /** A buffered response: success, or a client-side error returned as the upstream sent it. */
    private void respond(UpstreamResponse.Complete complete, Verdict verdict) {
        int status = complete.status();
        response.setStatusCode(status);
        copyHeaders(complete.headers(), response, "application/json");
        firstByteSent();
        boolean success = verdict instanceof Verdict.Success;
        response.end(success ? complete.body() : maskedBody(complete));
        settle(status, null, success, TokenUsage.fromBody(complete.outcome().body()), false);
    }

    /** Streaming passthrough from here on: the first chunk goes to the client now. */
    private void commit(UpstreamStream stream) {
        committedStream = stream;
        response.setStatusCode(stream.status());
        copyHeaders(stream.headers(), response, "text/event-stream");
        response.putHeader("cache-control", "no-cache");
        response.setChunked(true);
        firstByteSent();
        response.write(stream.firstChunk());
        stream.start(
                chunk -> {
                    response.write(chunk);
                    if (response.writeQueueFull()) {
                        stream.pause();
                        response.drainHandler(ignored -> stream.resume());
                    }
                },
                this::streamEnded);
    }

    /** After the first chunk a failure is only recorded, never retried: the client has the bytes. */
    private void streamEnded(UpstreamOutcome outcome) {
        if (clientGone) {
            return;
        }
        response.end();
        Verdict verdict = masked(OutcomeClassifier.classify(outcome, echo));
        service.metrics.attempt(request.protocol(), outcomeLabel(verdict));
        record(verdict);
        boolean success = verdict instanceof Verdict.Success;
        settle(
                outcome.status(),
                success ? null : failureLabel(verdict),
                success,
                TokenUsage.fromBody(outcome.body()),
                false);
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

    private void refuse(ReasonCode code, String message, Instant earliestRecovery) {
        if (earliestRecovery != null) {
            long seconds =
                    Duration.between(service.clock.instant(), earliestRecovery).toMillis();
            response.putHeader("retry-after", Long.toString(Math.max(1, (seconds + 999) / 1000)));
        }
        sendError(code.httpStatus(), code.wire(), message, code.errorType());
    }

    private void sendError(int status, String code, String message, String type) {
        response.setStatusCode(status).putHeader("content-type", "application/json");
        response.end(ErrorBodies.of(code, message, type));
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
            TokenUsage usage = TokenUsage.fromBody(committedStream.textSoFar());
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
        service.usage.publish(new RequestCompleted(
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
                success,
                false));
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
