package io.routegateway.gateway.http;

import java.io.IOException;
import java.time.Clock;
import java.util.List;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.access.AccessDecision;
import io.routegateway.core.bridge.BridgePlan;
import io.routegateway.core.bridge.Embeddings;
import io.routegateway.core.bridge.EmbeddingsRule;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.EventIds;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.forward.CountTokensRequest;
import io.routegateway.core.forward.GeminiCountTokensRequest;
import io.routegateway.core.forward.RequestedModel;
import io.routegateway.core.forward.StreamingPassthrough;
import io.routegateway.core.forward.UnsupportedOperation;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.core.select.RouteRequest;
import io.routegateway.core.upstream.GeminiModels;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.forward.ErrorBodies;
import io.routegateway.gateway.forward.ForwardingService;
import io.routegateway.gateway.forward.Operation;
import io.routegateway.gateway.forward.ProxyRequest;
import io.routegateway.gateway.metrics.GatewayMetrics;
import io.routegateway.gateway.publish.UsagePublisher;
import io.routegateway.gateway.view.PoolViewHolder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.SecurityPolicyHandler;

/**
 * The client-facing endpoints, as plain Vert.x routes (no JAX-RS layer on the hot path): each
 * protocol's native path, plus {@code GET /v1/models}. Every refusal is in the envelope of the
 * client's protocol ({@link ErrorBodies}): the route's protocol, for the listings the path's
 * (Gemini under {@code /v1beta}) or Anthropic's when the request carries {@code anthropic-version}.
 *
 * <p>The front door, in order: the AccessKey is authenticated on the request headers before a byte
 * of the body is read (an unknown key gets 401 and, on HTTP/1.x, the connection is closed so an
 * unread upload cannot keep it busy); the body is then read up to {@code
 * gateway.request.max-body-size} (413) within {@code gateway.request.body-read-timeout} (408 {@code
 * request_body_timeout}, connection closed); it is parsed once, with a string-length limit as large
 * as the body limit; a request without a usable model is refused ({@code model_required}, {@code
 * model_required_by_filter}, {@code invalid_model}, see {@link RequestedModel}) before routing, and
 * the rest is handed over to {@link ForwardingService}.
 */
@Singleton
public class GatewayRoutes {

    static final String GEMINI_PATH = "/v1beta/models/([^/:]+):(generateContent|streamGenerateContent|countTokens)";
    static final String COUNT_TOKENS_PATH = "/v1/messages/count_tokens";
    static final String EMBEDDINGS_PATH = "/v1/embeddings";
    static final String INVALID_JSON = "invalid_json";
    static final String INVALID_REQUEST = "invalid_request";
    static final String REQUEST_TOO_LARGE = "request_too_large";
    static final String INVALID_MODEL = "invalid_model";
    static final String MODEL_REQUIRED = "model_required";
    static final String MODEL_NOT_FOUND = "model_not_found";
    /** Longest model id {@code GET /v1/models/{id}} looks up. */
    static final int MAX_MODEL_ID = 256;
    /** Longest part of an unknown model id quoted back. */
    static final int MAX_QUOTED_ID = 100;

    static final String REQUEST_BODY_TIMEOUT = "request_body_timeout";
    /** A request that must not be converted: {@code native_route_required} rather than a protocol bridge. */
    public static final String NATIVE_ONLY_HEADER = "x-route-native-only";
    /** The authenticated key of a request, put on its context before the body is read. */
    private static final String KEY = "route.access-key";
    /** The protocol of a forwarded route, put on its context before the body is read. */
    private static final String PROTOCOL = "route.protocol";
    /** The body-read deadline timer of a request. */
    private static final String BODY_TIMER = "route.body-timer";

    private final PoolViewHolder views;
    private final ForwardingService forwarding;
    private final UsagePublisher usage;
    private final GatewayMetrics metrics;
    private final Clock clock;
    private final long maxBodyBytes;
    private final long bodyReadTimeoutMillis;
    private final ObjectReader tree;

    GatewayRoutes(
            PoolViewHolder views,
            ForwardingService forwarding,
            UsagePublisher usage,
            GatewayMetrics metrics,
            Clock clock,
            GatewayConfig config) {
        this.views = views;
        this.forwarding = forwarding;
        this.usage = usage;
        this.metrics = metrics;
        this.clock = clock;
        this.maxBodyBytes = config.request().maxBodySize().asLongValue();
        this.bodyReadTimeoutMillis =
                Math.max(1, config.request().bodyReadTimeout().toMillis());
        this.tree = bodyReader(maxBodyBytes);
    }

    /**
     * The body parser: Jackson's default limit of 20,000,000 characters per string would refuse a
     * large inline attachment in a body under the body limit, so strings may be as long as the body
     * (a string never has more characters than the body has bytes). The other limits (nesting depth,
     * number and name length) stay Jackson's.
     */
    static ObjectReader bodyReader(long maxBodyBytes) {
        ObjectMapper mapper = Json.MAPPER.copy();
        mapper.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength((int) Math.min(Integer.MAX_VALUE, Math.max(maxBodyBytes, 1)))
                        .build());
        return mapper.reader();
    }

    void register(@Observes Router router) {
        route(router, "/v1/chat/completions", Protocol.OPENAI_CHAT);
        route(router, "/v1/responses", Protocol.OPENAI_RESPONSES);
        route(router, "/v1/messages", Protocol.ANTHROPIC_MESSAGES);
        router.post(COUNT_TOKENS_PATH)
                .handler(new Admission(Protocol.ANTHROPIC_MESSAGES))
                .handler(bodyHandler())
                .handler(ctx -> forward(ctx, Protocol.ANTHROPIC_MESSAGES, Operation.COUNT_TOKENS))
                .failureHandler(this::failed);
        // embeddings speak OpenAI's protocol: the key's protocol filter is openai_chat's
        router.post(EMBEDDINGS_PATH)
                .handler(new Admission(Protocol.OPENAI_CHAT))
                .handler(bodyHandler())
                .handler(ctx -> forward(ctx, Protocol.OPENAI_CHAT, Operation.EMBEDDINGS))
                .failureHandler(this::failed);
        router.postWithRegex(GEMINI_PATH)
                .handler(new Admission(Protocol.GEMINI))
                .handler(bodyHandler())
                .handler(ctx -> forward(ctx, Protocol.GEMINI, Operation.GENERATE))
                .failureHandler(this::failed);
        router.get("/v1/models").handler(this::models);
        router.get("/v1/models/:id").handler(this::model);
        router.get("/v1beta/models").handler(this::geminiModels);
        router.get("/v1beta/models/:model").handler(this::geminiModel);
        // everything else under the protocols' prefixes is an operation the gateway does not serve
        router.route("/v1/*").handler(this::unsupported);
        router.route("/v1beta/*").handler(this::unsupported);
    }

    /**
     * {@code operation_unsupported}, in the envelope of the protocol the path belongs to (Anthropic's
     * {@code count_tokens}, OpenAI's embeddings, Gemini's {@code countTokens}, a served path with
     * another method…), instead of a bare 404. The key is authenticated first, like every request.
     */
    private void unsupported(RoutingContext ctx) {
        AccessKeySnapshot key = authenticate(ctx.request());
        Protocol protocol = UnsupportedOperation.protocolOf(
                ctx.normalizedPath(), ctx.request().getHeader("anthropic-version") != null);
        if (key == null) {
            refuseKey(ctx, protocol);
            return;
        }
        ReasonCode code = ReasonCode.OPERATION_UNSUPPORTED;
        metrics.request(protocol, code.httpStatus(), code.wire());
        ctx.response()
                .setStatusCode(code.httpStatus())
                .putHeader("content-type", "application/json")
                .end(UnsupportedOperation.body(ctx.request().method().name(), ctx.normalizedPath(), protocol));
        recordRefusal(key, protocol, code.httpStatus(), code.wire());
    }

    private void route(Router router, String path, Protocol protocol) {
        router.post(path)
                .handler(new Admission(protocol))
                .handler(bodyHandler())
                .handler(ctx -> forward(ctx, protocol, Operation.GENERATE))
                .failureHandler(this::failed);
    }

    /**
     * {@link #admit} as the handler ahead of the {@link BodyHandler}: Vert.x Web runs a route's
     * security-policy handlers before its body handler (a plain handler may only come after it).
     */
    private final class Admission implements SecurityPolicyHandler {

        private final Protocol protocol;

        Admission(Protocol protocol) {
            this.protocol = protocol;
        }

        @Override
        public void handle(RoutingContext ctx) {
            admit(ctx, protocol);
        }
    }

    /**
     * The first handler of a forwarded route, on the request headers alone: an unknown key is refused
     * before the body is read; a known one starts the body-read deadline and lets the body be read.
     */
    private void admit(RoutingContext ctx, Protocol protocol) {
        ctx.put(PROTOCOL, protocol);
        AccessKeySnapshot key = authenticate(ctx.request());
        if (key == null) {
            refuseKey(ctx, protocol);
            return;
        }
        ctx.put(KEY, key);
        Vertx vertx = ctx.vertx();
        long timer = vertx.setTimer(bodyReadTimeoutMillis, id -> bodyTimedOut(ctx, key, protocol));
        ctx.put(BODY_TIMER, timer);
        ctx.addEndHandler(ended -> vertx.cancelTimer(timer));
        ctx.next();
    }

    /** The body did not arrive in time: 408, and the connection is closed (its upload is abandoned). */
    private void bodyTimedOut(RoutingContext ctx, AccessKeySnapshot key, Protocol protocol) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        metrics.request(protocol, 408, REQUEST_BODY_TIMEOUT);
        endAndClose(
                ctx,
                408,
                ErrorBodies.of(
                        protocol,
                        408,
                        REQUEST_BODY_TIMEOUT,
                        "the request body was not received within " + bodyReadTimeoutMillis
                                + " ms (gateway.request.body-read-timeout)",
                        "invalid_request_error"));
        recordRefusal(key, protocol, 408, REQUEST_BODY_TIMEOUT);
    }

    /**
     * Ends the response and closes what carries the rest of the request body: the connection on
     * HTTP/1.x ({@code Connection: close}), the stream on HTTP/2 (the connection serves others).
     */
    private static void endAndClose(RoutingContext ctx, int status, Buffer body) {
        HttpServerRequest request = ctx.request();
        HttpServerResponse response = ctx.response();
        boolean http2 = request.version() == HttpVersion.HTTP_2;
        response.setStatusCode(status).putHeader("content-type", "application/json");
        if (!http2) {
            response.putHeader("connection", "close");
        }
        response.end(body).onComplete(written -> {
            if (http2) {
                if (!request.isEnded()) {
                    response.reset(0); // RST_STREAM NO_ERROR: the rest of the upload is not wanted
                }
            } else {
                request.connection().close();
            }
        });
    }

    /** Reads the body up to the limit; a declared or actual oversize body fails the route with 413. */
    private BodyHandler bodyHandler() {
        return BodyHandler.create(false).setBodyLimit(maxBodyBytes).setHandleFileUploads(false);
    }

    private void failed(RoutingContext ctx) {
        if (ctx.response().ended()) {
            return;
        }
        if (ctx.statusCode() == 413) {
            tooLarge(ctx);
            return;
        }
        int status = ctx.statusCode() >= 400 ? ctx.statusCode() : 500;
        error(
                ctx,
                null,
                ctx.get(PROTOCOL),
                status,
                "invalid_request",
                "the request could not be read",
                "invalid_request_error");
    }

    /** 413; the connection is closed, as the rest of the oversize upload is not read. */
    private void tooLarge(RoutingContext ctx) {
        AccessKeySnapshot key = ctx.get(KEY);
        Protocol protocol = ctx.get(PROTOCOL);
        metrics.request(null, 413, REQUEST_TOO_LARGE);
        endAndClose(
                ctx,
                413,
                ErrorBodies.of(
                        protocol,
                        413,
                        REQUEST_TOO_LARGE,
                        "the request body exceeds " + maxBodyBytes + " bytes (gateway.request.max-body-size)",
                        "invalid_request_error"));
        if (key != null) {
            recordRefusal(key, null, 413, REQUEST_TOO_LARGE);
        }
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

    private void forward(RoutingContext ctx, Protocol protocol, Operation operation) {
        boolean countTokens = operation == Operation.COUNT_TOKENS;
        long arrived = System.nanoTime();
        Long timer = ctx.get(BODY_TIMER);
        if (timer != null) {
            ctx.vertx().cancelTimer(timer);
        }
        AccessKeySnapshot key = ctx.get(KEY);
        Buffer bytes = ctx.body().buffer();
        JsonNode body = parse(bytes);
        long bodyBytes = bytes == null ? 0 : bytes.length();
        releaseRawBody(ctx);
        if (body == null || !body.isObject()) {
            error(
                    ctx,
                    key,
                    protocol,
                    400,
                    INVALID_JSON,
                    "the request body is not a JSON object",
                    "invalid_request_error");
            return;
        }
        String model;
        boolean geminiStream = false;
        if (protocol == Protocol.GEMINI) {
            model = GeminiModels.decodePathSegment(ctx.pathParam("param0"));
            // the segment goes into the upstream URL, which carries the pool's key
            String problem = GeminiModels.problem(model);
            if (problem != null) {
                error(ctx, key, protocol, 400, INVALID_MODEL, problem, "invalid_request_error");
                return;
            }
            geminiStream = "streamGenerateContent".equals(ctx.pathParam("param1"));
            if ("countTokens".equals(ctx.pathParam("param1"))) {
                operation = Operation.COUNT_TOKENS;
                countTokens = true;
            }
        } else {
            RequestedModel requested = RequestedModel.of(body.get("model"));
            if (!(requested instanceof RequestedModel.Named named)) {
                refuseModel(ctx, key, protocol, requested);
                return;
            }
            model = named.model();
        }
        if (countTokens) {
            String problem = protocol == Protocol.GEMINI
                    ? GeminiCountTokensRequest.problem(body)
                    : CountTokensRequest.problem(body);
            if (problem != null) {
                error(ctx, key, protocol, 400, INVALID_REQUEST, problem, "invalid_request_error");
                return;
            }
        }
        if (operation == Operation.EMBEDDINGS) {
            String problem = Embeddings.problem(body);
            if (problem != null) {
                error(ctx, key, protocol, 400, INVALID_REQUEST, problem, "invalid_request_error");
                return;
            }
            boolean nativeOnly = "true".equalsIgnoreCase(ctx.request().getHeader(NATIVE_ONLY_HEADER));
            // no affinity: an embedding has no conversation to keep on one credential
            forwarding.forward(
                    ctx,
                    new ProxyRequest(
                            EventIds.next(),
                            protocol,
                            key,
                            body,
                            model,
                            false,
                            false,
                            ctx.request().headers().entries(),
                            new RouteRequest(key, protocol, model, null, new EmbeddingsRule(body, nativeOnly)),
                            null,
                            bodyBytes,
                            arrived,
                            operation));
            return;
        }
        boolean stream = !countTokens && StreamingPassthrough.clientAskedForStream(protocol, body, geminiStream);
        BridgePlan bridges = BridgePlan.of(
                protocol,
                // count_tokens converts nothing: a bridged credential's answer is the local estimate
                countTokens ? null : body,
                protocol == Protocol.GEMINI ? model : null,
                stream,
                model,
                "true".equalsIgnoreCase(ctx.request().getHeader(NATIVE_ONLY_HEADER)));
        ProxyRequest request = new ProxyRequest(
                EventIds.next(),
                protocol,
                key,
                body,
                model,
                stream,
                StreamingPassthrough.hasCustomTools(protocol, body),
                ctx.request().headers().entries(),
                RouteRequest.of(key, protocol, model, body, bridges),
                bridges,
                bodyBytes,
                arrived,
                operation);
        forwarding.forward(ctx, request);
    }

    /**
     * A request without a usable model: the key's own refusals come first, in the spec's order (a
     * disabled key is {@code access_key_disabled} whatever its body); then {@code
     * model_required_by_filter} when the key restricts models and names none, {@code model_required}
     * (400) when it does not, {@code invalid_model} (400) for a value that cannot name a model.
     */
    private void refuseModel(RoutingContext ctx, AccessKeySnapshot key, Protocol protocol, RequestedModel requested) {
        AccessDecision decision = AccessDecision.decide(key, protocol, null, clock.instant());
        if (decision instanceof AccessDecision.Refused refused
                && (refused.code() != ReasonCode.MODEL_REQUIRED_BY_FILTER
                        || requested instanceof RequestedModel.Missing)) {
            ReasonCode code = refused.code();
            String message =
                    requested instanceof RequestedModel.Missing missing && code == ReasonCode.MODEL_REQUIRED_BY_FILTER
                            ? code.meaning() + "; " + missing.message()
                            : refused.message();
            error(ctx, key, protocol, code.httpStatus(), code.wire(), message, code.errorType());
            return;
        }
        if (requested instanceof RequestedModel.Missing missing) {
            error(ctx, key, protocol, 400, MODEL_REQUIRED, missing.message(), "invalid_request_error");
        } else {
            error(
                    ctx,
                    key,
                    protocol,
                    400,
                    INVALID_MODEL,
                    ((RequestedModel.Invalid) requested).message(),
                    "invalid_request_error");
        }
    }

    /**
     * {@code GET /v1/models}: the models the key's groups expose, in a shape both OpenAI and
     * Anthropic clients read. Paused models are deliberately listed (a request for one answers
     * {@code route_pool.model_unavailable}).
     */
    private void models(RoutingContext ctx) {
        AccessKeySnapshot key = listingKey(ctx);
        if (key == null) {
            return;
        }
        List<String> models = views.pool().modelsFor(key);
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (String model : models) {
            data.addObject()
                    .put("id", model)
                    .put("object", "model")
                    .put("type", "model")
                    .put("display_name", model)
                    .put("created", 0)
                    .put("created_at", "1970-01-01T00:00:00Z")
                    .put("owned_by", "route-gateway");
        }
        root.put("has_more", false);
        root.put("first_id", models.isEmpty() ? null : models.get(0));
        root.put("last_id", models.isEmpty() ? null : models.get(models.size() - 1));
        ctx.response().putHeader("content-type", "application/json").end(root.toString());
    }

    /**
     * {@code GET /v1/models/{id}}: one model of {@link #models}, OpenAI's shape, when the key can use
     * it; 404 {@code model_not_found} otherwise. An id no model could have (control characters, over
     * {@link #MAX_MODEL_ID} characters) is 400 {@code invalid_model}; neither echoes more than
     * {@link #MAX_QUOTED_ID} characters of it.
     */
    private void model(RoutingContext ctx) {
        if (ctx.pathParam("id") != null && ctx.pathParam("id").indexOf(':') >= 0) {
            ctx.next(); // a Gemini-style method on a model: operation_unsupported, as before
            return;
        }
        AccessKeySnapshot key = listingKey(ctx);
        if (key == null) {
            return;
        }
        String id = ctx.pathParam("id");
        if (id == null
                || id.isEmpty()
                || id.length() > MAX_MODEL_ID
                || id.chars().anyMatch(Character::isISOControl)) {
            sendError(
                    ctx,
                    listingProtocol(ctx),
                    400,
                    INVALID_MODEL,
                    "the model id is not one a model can have (at most " + MAX_MODEL_ID
                            + " characters, no control characters)",
                    "invalid_request_error");
            return;
        }
        if (!views.pool().modelsFor(key).contains(id)) {
            String quoted = id.length() > MAX_QUOTED_ID ? id.substring(0, MAX_QUOTED_ID) + "…" : id;
            sendError(
                    ctx,
                    listingProtocol(ctx),
                    404,
                    MODEL_NOT_FOUND,
                    "the model '" + quoted + "' does not exist or this key cannot use it",
                    "invalid_request_error");
            return;
        }
        ObjectNode root = Json.MAPPER
                .createObjectNode()
                .put("id", id)
                .put("object", "model")
                .put("created", 0)
                .put("owned_by", "route-gateway");
        ctx.response().putHeader("content-type", "application/json").end(root.toString());
    }

    /**
     * Gemini's {@code GET /v1beta/models}: the same models as {@link #models}, in Gemini's list shape
     * ({@code models[].name} is {@code models/<id>}); no paging, the whole list is one page.
     */
    private void geminiModels(RoutingContext ctx) {
        AccessKeySnapshot key = listingKey(ctx);
        if (key == null) {
            return;
        }
        ObjectNode root = Json.MAPPER.createObjectNode();
        ArrayNode list = root.putArray("models");
        for (String model : views.pool().modelsFor(key)) {
            list.add(geminiModel(model));
        }
        ctx.response().putHeader("content-type", "application/json").end(root.toString());
    }

    /** Gemini's {@code GET /v1beta/models/{model}}: one model, or 404 in Gemini's error shape. */
    private void geminiModel(RoutingContext ctx) {
        String id = ctx.pathParam("model");
        if (id != null && id.indexOf(':') >= 0) {
            ctx.next(); // a method on a model (countTokens, a GET of generateContent…): operation_unsupported
            return;
        }
        AccessKeySnapshot key = listingKey(ctx);
        if (key == null) {
            return;
        }
        boolean usable = id != null
                && id.length() <= MAX_MODEL_ID
                && id.chars().noneMatch(Character::isISOControl)
                && views.pool().modelsFor(key).contains(id);
        if (!usable) {
            // the id is not echoed: it may be anything
            sendError(
                    ctx,
                    Protocol.GEMINI,
                    404,
                    MODEL_NOT_FOUND,
                    "the model does not exist or this key cannot use it",
                    "invalid_request_error");
            return;
        }
        ctx.response()
                .putHeader("content-type", "application/json")
                .end(geminiModel(id).toString());
    }

    private static ObjectNode geminiModel(String model) {
        ObjectNode node =
                Json.MAPPER.createObjectNode().put("name", "models/" + model).put("displayName", model);
        node.putArray("supportedGenerationMethods").add("generateContent").add("streamGenerateContent");
        return node;
    }

    /**
     * The key of a model-listing request, or null once it was refused (unknown key 401; a disabled,
     * expired or protocol-filtered key as on any request).
     */
    private AccessKeySnapshot listingKey(RoutingContext ctx) {
        AccessKeySnapshot key = authenticate(ctx.request());
        if (key == null) {
            refuseKey(ctx, listingProtocol(ctx));
            return null;
        }
        Protocol protocol = key.allowedProtocols().isEmpty()
                ? Protocol.OPENAI_CHAT
                : key.allowedProtocols().get(0);
        AccessDecision decision = AccessDecision.decide(key, protocol, null, clock.instant());
        if (decision instanceof AccessDecision.Refused refused
                && refused.code() != ReasonCode.MODEL_REQUIRED_BY_FILTER) {
            sendError(
                    ctx,
                    listingProtocol(ctx),
                    refused.code().httpStatus(),
                    refused.code().wire(),
                    refused.message(),
                    refused.code().errorType());
            return null;
        }
        return key;
    }

    /**
     * The presented AccessKey, found by the SHA-256 of its plaintext: {@code Authorization: Bearer},
     * {@code x-api-key}, {@code x-goog-api-key} or {@code ?key=}, the first one present.
     */
    private AccessKeySnapshot authenticate(HttpServerRequest request) {
        String plaintext = presentedKey(request);
        return plaintext == null ? null : views.pool().authenticate(plaintext).orElse(null);
    }

    static String presentedKey(HttpServerRequest request) {
        String authorization = request.getHeader("authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return authorization.substring(7).trim();
        }
        String apiKey = request.getHeader("x-api-key");
        if (apiKey != null) {
            return apiKey.trim();
        }
        String googKey = request.getHeader("x-goog-api-key");
        if (googKey != null) {
            return googKey.trim();
        }
        return request.getParam("key");
    }

    /**
     * 401 {@code invalid_access_key}, decided on the headers alone: the body is never read and the
     * connection is closed behind the answer (see {@link #endAndClose}).
     */
    private void refuseKey(RoutingContext ctx, Protocol protocol) {
        ReasonCode code = ReasonCode.INVALID_ACCESS_KEY;
        metrics.request(protocol, code.httpStatus(), code.wire());
        endAndClose(
                ctx,
                code.httpStatus(),
                ErrorBodies.of(protocol, code.httpStatus(), code.wire(), code.meaning(), code.errorType()));
    }

    /**
     * The protocol whose envelope a listing's refusal uses: Gemini's under {@code /v1beta},
     * Anthropic's when the request carries {@code anthropic-version} (the Anthropic SDKs send it on
     * every call), else OpenAI's (null).
     */
    static Protocol listingProtocol(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (path != null && path.startsWith("/v1beta")) {
            return Protocol.GEMINI;
        }
        return ctx.request().getHeader("anthropic-version") != null ? Protocol.ANTHROPIC_MESSAGES : null;
    }

    private JsonNode parse(Buffer bytes) {
        if (bytes == null || bytes.length() == 0) {
            return null;
        }
        try {
            return tree.readTree(bytes.getBytes());
        } catch (IOException e) {
            return null;
        }
    }

    /** An error for a request that did not reach routing; recorded when its key is known. */
    private void error(
            RoutingContext ctx,
            AccessKeySnapshot key,
            Protocol protocol,
            int status,
            String code,
            String message,
            String type) {
        sendError(ctx, protocol, status, code, message, type);
        if (key != null) {
            recordRefusal(key, protocol, status, code);
        }
    }

    /** The usage record of a request refused before routing (request logs show its code). */
    private void recordRefusal(AccessKeySnapshot key, Protocol protocol, int status, String code) {
        usage.publish(
                RequestCompleted.refused(EventIds.next(), clock.instant(), protocol, key.accessKeyId(), status, code));
    }

    private void sendError(
            RoutingContext ctx, Protocol protocol, int status, String code, String message, String type) {
        metrics.request(protocol, status, code);
        ctx.response()
                .setStatusCode(status)
                .putHeader("content-type", "application/json")
                .end(ErrorBodies.of(protocol, status, code, message, type));
    }
}
