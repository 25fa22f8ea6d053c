package io.routegateway.core.forward;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.InboundScreen;
import io.routegateway.core.text.StorableText;

/**
 * The model a client request names in its body's {@code "model"} field, judged before anything is
 * routed or sent upstream: a request without a usable one is refused at the front door instead of
 * being forwarded (no group would be chosen by model, and the upstream answer would name whatever
 * the client sent).
 *
 * <ul>
 *   <li>{@link Missing} — no field, {@code null}, not a string (a number, an object…), {@code ""}
 *       or only whitespace: the gateway answers {@code model_required} (or the spec's {@code
 *       model_required_by_filter} when the key restricts models);
 *   <li>{@link Invalid} — a string no model can be named by: longer than {@link #MAX_CHARS}, or
 *       holding a control character, U+0000 or an unpaired surrogate (it could not be stored in the
 *       request log, and it would only be quoted back): {@code invalid_model};
 *   <li>{@link Named} — anything else, exactly as sent.
 * </ul>
 *
 * Messages describe what is wrong and never quote the value.
 */
public sealed interface RequestedModel {

    /** Longest model name accepted; the request log keeps model names up to the same length. */
    int MAX_CHARS = InboundScreen.MAX_MODEL_CHARS;

    /** The model as the client named it. */
    record Named(String model) implements RequestedModel {}

    /** No usable model name; {@code message} says what the field held. */
    record Missing(String message) implements RequestedModel {}

    /** A model name that is not one; {@code message} says why, without the value. */
    record Invalid(String message) implements RequestedModel {}

    /** @param field the body's {@code "model"} member, null when absent */
    static RequestedModel of(JsonNode field) {
        if (field == null || field.isMissingNode()) {
            return new Missing("the request names no model: the body has no \"model\" field");
        }
        if (field.isNull()) {
            return new Missing("the request names no model: \"model\" is null");
        }
        if (!field.isTextual()) {
            return new Missing("the request names no model: \"model\" is a " + typeOf(field) + ", not a string");
        }
        String model = field.textValue();
        if (model.isEmpty()) {
            return new Missing("the request names no model: \"model\" is empty");
        }
        if (model.isBlank()) {
            return new Missing("the request names no model: \"model\" is only whitespace");
        }
        String problem = problem(model);
        return problem == null ? new Named(model) : new Invalid(problem);
    }

    /** Why {@code model} (non-blank) cannot name a model, null when it can. */
    static String problem(String model) {
        if (model.length() > MAX_CHARS) {
            return "the model name is " + model.length() + " characters long, over the limit of " + MAX_CHARS;
        }
        int unstorable = StorableText.firstUnstorable(model);
        if (unstorable >= 0) {
            return "the model name holds U+0000 or an unpaired surrogate at index " + unstorable;
        }
        for (int i = 0; i < model.length(); i++) {
            char c = model.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return "the model name holds a control character at index " + i;
            }
        }
        return null;
    }

    private static String typeOf(JsonNode field) {
        return switch (field.getNodeType()) {
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> field.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
