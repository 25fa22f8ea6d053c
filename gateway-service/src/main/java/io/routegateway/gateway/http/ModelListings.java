package io.routegateway.gateway.http;

import java.time.Clock;
import java.util.List;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.access.AccessDecision;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.forward.Refusal;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;
import io.routegateway.gateway.forward.Refusals;
import io.routegateway.gateway.view.PoolViewHolder;
import io.vertx.ext.web.RoutingContext;

/**
 * The model listings: {@code GET /v1/models[/{id}]} in a shape both OpenAI and Anthropic clients
 * read, and Gemini's {@code GET /v1beta/models[/{model}]}. A listing's refusal is in the envelope of
 * the path's protocol (Gemini's under {@code /v1beta}) or Anthropic's when the request carries
 * {@code anthropic-version}.
 */
@Singleton
public class ModelListings {

    static final String INVALID_MODEL = "invalid_model";
    static final String MODEL_NOT_FOUND = "model_not_found";
    /** Longest model id {@code GET /v1/models/{id}} looks up. */
    static final int MAX_MODEL_ID = 256;
    /** Longest part of an unknown model id quoted back. */
    static final int MAX_QUOTED_ID = 100;

    private final PoolViewHolder views;
    private final FrontDoor frontDoor;
    private final Refusals refusals;
    private final Clock clock;

    ModelListings(PoolViewHolder views, FrontDoor frontDoor, Refusals refusals, Clock clock) {
        this.views = views;
        this.frontDoor = frontDoor;
        this.refusals = refusals;
        this.clock = clock;
    }

    /**
     * {@code GET /v1/models}: the models the key's groups expose, in a shape both OpenAI and
     * Anthropic clients read. Paused models are deliberately listed (a request for one answers
     * {@code route_pool.model_unavailable}).
     */
    void models(RoutingContext ctx) {
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
    void model(RoutingContext ctx) {
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
    void geminiModels(RoutingContext ctx) {
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
    void geminiModel(RoutingContext ctx) {
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
        AccessKeySnapshot key = frontDoor.authenticate(ctx.request(), listingProtocol(ctx));
        if (key == null) {
            frontDoor.refuseKey(ctx, listingProtocol(ctx));
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

    /** A listing's refusal: counted, never recorded as a request. */
    private void sendError(
            RoutingContext ctx, Protocol protocol, int status, String code, String message, String type) {
        refusals.answer(ctx.response(), null, protocol, new Refusal(status, code, message, type));
    }
}
