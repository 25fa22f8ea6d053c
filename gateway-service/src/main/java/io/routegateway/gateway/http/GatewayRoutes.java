package io.routegateway.gateway.http;

import java.time.Clock;
import java.util.function.Consumer;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.forward.ClientBodyReader;
import io.routegateway.core.forward.ClientRequest;
import io.routegateway.core.forward.Operation;
import io.routegateway.core.forward.Refusal;
import io.routegateway.core.forward.UnsupportedOperation;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.gateway.admission.AdmissionOutcome;
import io.routegateway.gateway.admission.AdmissionStage;
import io.routegateway.gateway.admission.Ticket;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.forward.ForwardingService;
import io.routegateway.gateway.forward.ProxyRequest;
import io.routegateway.gateway.forward.Refusals;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The client-facing endpoints, as plain Vert.x routes (no JAX-RS layer on the hot path): each
 * protocol's native path behind the {@link FrontDoor}, the {@link ModelListings}, and {@code
 * operation_unsupported} for every other path under the protocols' prefixes. A forwarded request's
 * body is parsed once within bounds ({@link ClientBodyReader}; on a worker thread when it is large),
 * read by route-core's {@link ClientRequest} into what routing needs or a refusal, and handed over to {@link
 * ForwardingService} once the {@link AdmissionStage} admitted it (a key's and its team's limits).
 * Every refusal is in the envelope of the client's protocol ({@link Refusals}).
 */
@Singleton
public class GatewayRoutes {

    static final String GEMINI_PATH = "/v1beta/models/([^/:]+):(generateContent|streamGenerateContent|countTokens)";
    static final String COUNT_TOKENS_PATH = "/v1/messages/count_tokens";
    static final String EMBEDDINGS_PATH = "/v1/embeddings";
    /** A request that must not be converted: {@code native_route_required} rather than a protocol bridge. */
    public static final String NATIVE_ONLY_HEADER = "x-route-native-only";

    private final FrontDoor frontDoor;
    private final ModelListings listings;
    private final ForwardingService forwarding;
    private final AdmissionStage admission;
    private final Refusals refusals;
    private final Clock clock;
    private final ClientBodyReader bodyReader;
    private final long parseOffLoopAbove;

    GatewayRoutes(
            FrontDoor frontDoor,
            ModelListings listings,
            ForwardingService forwarding,
            AdmissionStage admission,
            Refusals refusals,
            GatewayConfig config,
            Clock clock) {
        this.frontDoor = frontDoor;
        this.listings = listings;
        this.forwarding = forwarding;
        this.admission = admission;
        this.refusals = refusals;
        this.clock = clock;
        this.bodyReader = bodyReader(frontDoor.maxBodyBytes(), config.request());
        this.parseOffLoopAbove = config.request().parseOffLoopAbove().asLongValue();
    }

    static ClientBodyReader bodyReader(long maxBodyBytes, GatewayConfig.Request request) {
        return new ClientBodyReader(new ClientBodyReader.Bounds(
                maxBodyBytes, request.maxJsonDepth(), request.maxJsonTokens(), request.maxJsonNumberLength()));
    }

    void register(@Observes Router router) {
        forwarded(router, "/v1/chat/completions", Protocol.OPENAI_CHAT, Operation.GENERATE, false);
        forwarded(router, "/v1/responses", Protocol.OPENAI_RESPONSES, Operation.GENERATE, false);
        forwarded(router, "/v1/messages", Protocol.ANTHROPIC_MESSAGES, Operation.GENERATE, false);
        forwarded(router, COUNT_TOKENS_PATH, Protocol.ANTHROPIC_MESSAGES, Operation.COUNT_TOKENS, false);
        // embeddings speak OpenAI's protocol: the key's protocol filter is openai_chat's
        forwarded(router, EMBEDDINGS_PATH, Protocol.OPENAI_CHAT, Operation.EMBEDDINGS, false);
        forwarded(router, GEMINI_PATH, Protocol.GEMINI, Operation.GENERATE, true);
        router.get("/v1/models").handler(listings::models);
        router.get("/v1/models/:id").handler(listings::model);
        router.get("/v1beta/models").handler(listings::geminiModels);
        router.get("/v1beta/models/:model").handler(listings::geminiModel);
        // everything else under the protocols' prefixes is an operation the gateway does not serve
        router.route("/v1/*").handler(this::unsupported);
        router.route("/v1beta/*").handler(this::unsupported);
    }

    private void forwarded(Router router, String path, Protocol protocol, Operation operation, boolean regex) {
        (regex ? router.postWithRegex(path) : router.post(path))
                .handler(frontDoor.admission(protocol))
                .handler(frontDoor.bodyHandler())
                .handler(ctx -> forward(ctx, protocol, operation))
                .failureHandler(frontDoor::failed);
    }

    /**
     * {@code operation_unsupported}, in the envelope of the protocol the path belongs to (a served
     * path with another method, an API the gateway does not offer…), instead of a bare 404. The key
     * is authenticated first, like every request.
     */
    private void unsupported(RoutingContext ctx) {
        Protocol protocol = UnsupportedOperation.protocolOf(
                ctx.normalizedPath(), ctx.request().getHeader("anthropic-version") != null);
        AccessKeySnapshot key = frontDoor.authenticate(ctx.request(), protocol);
        if (key == null) {
            frontDoor.refuseKey(ctx, protocol);
            return;
        }
        ReasonCode code = ReasonCode.OPERATION_UNSUPPORTED;
        ctx.response()
                .setStatusCode(code.httpStatus())
                .putHeader("content-type", "application/json")
                .end(UnsupportedOperation.body(ctx.request().method().name(), ctx.normalizedPath(), protocol));
        refusals.counted(key, protocol, code.httpStatus(), code.wire());
    }

    private void forward(RoutingContext ctx, Protocol protocol, Operation operation) {
        long arrived = System.nanoTime();
        AccessKeySnapshot key = frontDoor.bodyArrived(ctx);
        Buffer bytes = ctx.body().buffer();
        long bodyBytes = bytes == null ? 0 : bytes.length();
        byte[] raw = bytes == null ? null : bytes.getBytes();
        releaseRawBody(ctx);
        if (bodyBytes <= parseOffLoopAbove) {
            parsed(ctx, protocol, operation, key, bodyReader.read(raw), bodyBytes, arrived);
            return;
        }
        // a large body is parsed on a worker: the event loop serves its other requests meanwhile,
        // and the rest of the request goes on back on this event loop
        ctx.vertx().executeBlocking(() -> bodyReader.read(raw), false).onComplete(read -> {
            if (read.failed()) {
                ctx.fail(read.cause());
                return;
            }
            parsed(ctx, protocol, operation, key, read.result(), bodyBytes, arrived);
        });
    }

    private void parsed(
            RoutingContext ctx,
            Protocol protocol,
            Operation operation,
            AccessKeySnapshot key,
            ClientBodyReader.Result read,
            long bodyBytes,
            long arrived) {
        if (read instanceof ClientBodyReader.Result.Refused refused) {
            refusals.answer(ctx.response(), key, protocol, refused.refusal());
            return;
        }
        JsonNode body = ((ClientBodyReader.Result.Parsed) read).body();
        boolean gemini = protocol == Protocol.GEMINI;
        ClientRequest parsed = ClientRequest.parse(
                protocol,
                operation,
                body,
                gemini ? ctx.pathParam("param0") : null,
                gemini ? ctx.pathParam("param1") : null,
                "true".equalsIgnoreCase(ctx.request().getHeader(NATIVE_ONLY_HEADER)),
                key,
                clock.instant());
        if (parsed instanceof ClientRequest.Refused refused) {
            Refusal refusal = refused.refusal();
            refusals.answer(ctx.response(), key, protocol, refusal);
            return;
        }
        ClientRequest.Accepted accepted = (ClientRequest.Accepted) parsed;
        admitted(
                ctx,
                key,
                protocol,
                accepted.operation(),
                body,
                bodyBytes,
                clock.millis(),
                ticket -> forwarding.forward(
                        ctx,
                        new ProxyRequest(
                                EventIds.next(),
                                protocol,
                                key,
                                body,
                                accepted.model(),
                                accepted.clientStream(),
                                accepted.customTools(),
                                ctx.request().headers().entries(),
                                accepted.route(),
                                accepted.bridges(),
                                bodyBytes,
                                arrived,
                                accepted.operation(),
                                ticket)));
    }

    /**
     * The admission stage: on admission the request's rate-limit headers go on the response (so any
     * answer carries them, a stream's on its head) and {@code admitted} goes on with its ticket; a
     * refusal is answered (429 or 503 in the client's envelope, with {@code Retry-After}; nothing sent
     * upstream); a fair-share refusal is first decided again for a short while ({@link
     * AdmissionOutcome.Recheck}, on this event loop's timer). A client that goes away meanwhile is
     * counted with the refusal it would have had.
     */
    private void admitted(
            RoutingContext ctx,
            AccessKeySnapshot key,
            Protocol protocol,
            Operation operation,
            JsonNode body,
            long bodyBytes,
            long firstTryMillis,
            Consumer<Ticket> admitted) {
        HttpServerResponse response = ctx.response();
        AdmissionOutcome outcome = admission.admit(key, operation, body, bodyBytes, clock.millis() - firstTryMillis);
        if (outcome instanceof AdmissionOutcome.Admitted yes) {
            yes.ticket().headers().forEach(response::putHeader);
            admitted.accept(yes.ticket());
            return;
        }
        if (outcome instanceof AdmissionOutcome.Recheck recheck) {
            ctx.vertx().setTimer(recheck.pauseMillis(), id -> {
                if (response.closed()) {
                    admission.goneWhileRechecking(recheck);
                    Refusal refusal = recheck.refused().refusal();
                    refusals.counted(key, protocol, refusal.status(), refusal.code());
                    return;
                }
                admitted(ctx, key, protocol, operation, body, bodyBytes, firstTryMillis, admitted);
            });
            return;
        }
        AdmissionOutcome.Refused refused = (AdmissionOutcome.Refused) outcome;
        refused.headers().forEach(response::putHeader);
        if (refused.retryAfterSeconds() != null) {
            response.putHeader("retry-after", Long.toString(Math.max(1, refused.retryAfterSeconds())));
        }
        refusals.answer(response, key, protocol, refused.refusal());
    }

    /**
     * Lets the request's raw bytes go once they are parsed: nothing reads them again, and a stream
     * would otherwise hold the whole prompt (often the largest thing it holds) for its length.
     * Vert.x Web offers no other way to drop a route's body than this deprecated setter.
     */
    @SuppressWarnings("deprecation")
    private static void releaseRawBody(RoutingContext ctx) {
        ctx.setBody(null);
    }
}
