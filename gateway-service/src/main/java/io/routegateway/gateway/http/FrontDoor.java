package io.routegateway.gateway.http;

import jakarta.inject.Singleton;

import io.routegateway.core.access.KeyPresentation;
import io.routegateway.core.bridge.ErrorReply;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.forward.Refusal;
import io.routegateway.core.load.LoadShedding;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.forward.Refusals;
import io.routegateway.gateway.load.LoadGuard;
import io.routegateway.gateway.view.PoolViewHolder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.SecurityPolicyHandler;

/**
 * The front door of every forwarded route, in order: the AccessKey is authenticated on the request
 * headers before a byte of the body is read (an unknown key gets 401 and, on HTTP/1.x, the
 * connection is closed so an unread upload cannot keep it busy); a replica at its load caps sheds
 * the request ({@link LoadGuard}: 503 {@code gateway_overloaded} with {@code Retry-After}, before
 * its body is read); the body is then read up to {@code gateway.request.max-body-size} (413) within
 * {@code gateway.request.body-read-timeout} (408 {@code request_body_timeout}, connection closed).
 */
@Singleton
public class FrontDoor {

    static final String REQUEST_TOO_LARGE = "request_too_large";
    static final String REQUEST_BODY_TIMEOUT = "request_body_timeout";
    /** The authenticated key of a request, put on its context before the body is read. */
    private static final String KEY = "route.access-key";
    /** The protocol of a forwarded route, put on its context before the body is read. */
    private static final String PROTOCOL = "route.protocol";
    /** The body-read deadline timer of a request. */
    private static final String BODY_TIMER = "route.body-timer";
    /** The body bytes a request holds in the {@link LoadGuard} (a one-element array, set once read). */
    private static final String BODY_HELD = "route.body-held";

    private final PoolViewHolder views;
    private final Refusals refusals;
    private final LoadGuard load;
    private final long maxBodyBytes;
    private final long bodyReadTimeoutMillis;

    FrontDoor(PoolViewHolder views, Refusals refusals, LoadGuard load, GatewayConfig config) {
        this.views = views;
        this.refusals = refusals;
        this.load = load;
        this.maxBodyBytes = config.request().maxBodySize().asLongValue();
        this.bodyReadTimeoutMillis =
                Math.max(1, config.request().bodyReadTimeout().toMillis());
    }

    long maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * The route's first handler, on the request headers alone: an unknown key is refused before the
     * body is read; a known one starts the body-read deadline and lets the body be read. A security
     * policy handler, as Vert.x Web runs those before a route's body handler.
     */
    SecurityPolicyHandler admission(Protocol protocol) {
        return ctx -> admit(ctx, protocol);
    }

    /** Reads the body up to the limit; a declared or actual oversize body fails the route with 413. */
    BodyHandler bodyHandler() {
        return BodyHandler.create(false).setBodyLimit(maxBodyBytes).setHandleFileUploads(false);
    }

    /** The body has arrived: its deadline is over. Returns the key {@link #admission} authenticated. */
    AccessKeySnapshot bodyArrived(RoutingContext ctx) {
        Long timer = ctx.get(BODY_TIMER);
        if (timer != null) {
            ctx.vertx().cancelTimer(timer);
        }
        long[] held = ctx.get(BODY_HELD);
        if (held != null && held[0] == 0 && ctx.body().buffer() != null) {
            // sent without a declared length: counted now that it is read
            held[0] = ctx.body().buffer().length();
            load.holds(held[0]);
        }
        return ctx.get(KEY);
    }

    private void admit(RoutingContext ctx, Protocol protocol) {
        ctx.put(PROTOCOL, protocol);
        AccessKeySnapshot key = authenticate(ctx.request(), protocol);
        if (key == null) {
            refuseKey(ctx, protocol);
            return;
        }
        ctx.put(KEY, key);
        long declared = declaredLength(ctx.request());
        LoadShedding.Shed shed = load.enter(declared);
        if (shed != null) {
            ctx.response().putHeader("retry-after", Integer.toString(LoadShedding.RETRY_AFTER_SECONDS));
            refuseAndClose(ctx, key, protocol, LoadShedding.refusal(shed));
            return;
        }
        long[] held = {declared};
        ctx.put(BODY_HELD, held);
        ctx.addEndHandler(ended -> load.leave(held[0]));
        Vertx vertx = ctx.vertx();
        long timer = vertx.setTimer(bodyReadTimeoutMillis, id -> bodyTimedOut(ctx, key, protocol));
        ctx.put(BODY_TIMER, timer);
        ctx.addEndHandler(ended -> vertx.cancelTimer(timer));
        ctx.next();
    }

    /** The request's {@code Content-Length}, 0 when absent or not a length. */
    static long declaredLength(HttpServerRequest request) {
        String header = request.getHeader("content-length");
        if (header == null) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(header.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The body did not arrive in time: 408, and the connection is closed (its upload is abandoned). */
    private void bodyTimedOut(RoutingContext ctx, AccessKeySnapshot key, Protocol protocol) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        refuseAndClose(
                ctx,
                key,
                protocol,
                new Refusal(
                        408,
                        REQUEST_BODY_TIMEOUT,
                        "the request body was not received within " + bodyReadTimeoutMillis
                                + " ms (gateway.request.body-read-timeout)",
                        Refusal.INVALID_REQUEST_ERROR));
    }

    /** The failure handler of a forwarded route: 413 for an oversize body, else the request is unreadable. */
    void failed(RoutingContext ctx) {
        if (ctx.response().ended()) {
            return;
        }
        Protocol protocol = ctx.get(PROTOCOL);
        if (ctx.statusCode() == 413) {
            // the connection is closed, as the rest of the oversize upload is not read
            refuseAndClose(
                    ctx,
                    ctx.get(KEY),
                    protocol,
                    new Refusal(
                            413,
                            REQUEST_TOO_LARGE,
                            "the request body exceeds " + maxBodyBytes + " bytes (gateway.request.max-body-size)",
                            Refusal.INVALID_REQUEST_ERROR));
            return;
        }
        int status = ctx.statusCode() >= 400 ? ctx.statusCode() : 500;
        refusals.answer(
                ctx.response(),
                null,
                protocol,
                new Refusal(status, "invalid_request", "the request could not be read", Refusal.INVALID_REQUEST_ERROR));
    }

    /**
     * The presented AccessKey, found by the SHA-256 of its plaintext: {@code Authorization: Bearer},
     * {@code x-api-key}, {@code x-goog-api-key} or, on a Gemini route only, {@code ?key=} ({@link
     * KeyPresentation}), the first one present.
     */
    AccessKeySnapshot authenticate(HttpServerRequest request, Protocol protocol) {
        String plaintext = presentedKey(request, protocol);
        return plaintext == null ? null : views.pool().authenticate(plaintext).orElse(null);
    }

    static String presentedKey(HttpServerRequest request, Protocol protocol) {
        String inHeaders = headerKey(request);
        if (inHeaders != null || !KeyPresentation.takesQueryKey(protocol)) {
            return inHeaders;
        }
        return request.getParam("key");
    }

    private static String headerKey(HttpServerRequest request) {
        String authorization = request.getHeader("authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return authorization.substring(7).trim();
        }
        String apiKey = request.getHeader("x-api-key");
        if (apiKey != null) {
            return apiKey.trim();
        }
        String googKey = request.getHeader("x-goog-api-key");
        return googKey == null ? null : googKey.trim();
    }

    /**
     * 401 {@code invalid_access_key}, decided on the headers alone: the body is never read and the
     * connection is closed behind the answer.
     */
    void refuseKey(RoutingContext ctx, Protocol protocol) {
        ReasonCode code = ReasonCode.INVALID_ACCESS_KEY;
        boolean keyInUrl = !KeyPresentation.takesQueryKey(protocol)
                && headerKey(ctx.request()) == null
                && ctx.request().getParam("key") != null;
        refuseAndClose(
                ctx,
                null,
                protocol,
                Refusal.of(code, keyInUrl ? KeyPresentation.QUERY_KEY_ON_GEMINI_ONLY : code.meaning()));
    }

    /**
     * Answers and closes what carries the rest of the request body: the connection on HTTP/1.x
     * ({@code Connection: close}), the stream on HTTP/2 (the connection serves others).
     */
    private void refuseAndClose(RoutingContext ctx, AccessKeySnapshot key, Protocol protocol, Refusal refusal) {
        HttpServerRequest request = ctx.request();
        HttpServerResponse response = ctx.response();
        boolean http2 = request.version() == HttpVersion.HTTP_2;
        ErrorReply reply = Refusals.reply(protocol, refusal);
        response.setStatusCode(reply.status()).putHeader("content-type", "application/json");
        if (!http2) {
            response.putHeader("connection", "close");
        }
        response.end(reply.body().toString()).onComplete(written -> {
            if (http2) {
                if (!request.isEnded()) {
                    response.reset(0); // RST_STREAM NO_ERROR: the rest of the upload is not wanted
                }
            } else {
                request.connection().close();
            }
        });
        refusals.counted(key, protocol, refusal.status(), refusal.code());
    }
}
