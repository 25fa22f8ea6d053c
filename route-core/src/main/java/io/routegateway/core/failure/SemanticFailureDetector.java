package io.routegateway.core.failure;

import java.io.IOException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import io.routegateway.core.json.Json;

/**
 * Decides whether a 2xx body is structurally a failure ("HTTP 200 with a failure body"), for a
 * buffered JSON document or the text of an SSE stream, across OpenAI Chat Completions, OpenAI
 * Responses, Anthropic Messages, Gemini and common relay envelopes.
 *
 * <p>A JSON document (or an SSE {@code data:} payload) is a failure when:
 *
 * <ul>
 *   <li>it has a top-level {@code error} that is a non-empty object, a non-blank string or {@code
 *       true} (OpenAI, Gemini, relays; {@code "error": null} as in every Responses object is not);
 *   <li>its top-level {@code type} is {@code error} (Anthropic, Responses stream error event) or
 *       {@code response.failed};
 *   <li>its nested {@code response} has {@code "status":"failed"} or a non-empty {@code error}
 *       (Responses events);
 *   <li>its {@code object} is {@code error} (vLLM-style OpenAI-compatible relays);
 *   <li>it says {@code "success": false} and carries no content ({@code choices}, {@code
 *       candidates}, {@code content}, {@code output}).
 * </ul>
 *
 * An SSE frame whose {@code event:} is {@code error} or {@code response.failed} is a failure
 * whatever its data. A JSON array (Gemini's streamed array form) is a failure when any element is.
 *
 * <p>Deliberately not failures: Gemini {@code promptFeedback.blockReason} and {@code
 * finishReason: SAFETY}. They are the provider's verdict on the client's prompt, the same on every
 * credential — like a 400, counting them would let one client's prompt park the pool. Bodies that
 * are neither JSON nor SSE (e.g. HTML) are not judged here either.
 *
 * <p>Speed: this runs on every response, so a body is parsed only when a cheap substring scan finds
 * a possible marker ({@code error} that is not {@code "error": null}, {@code failed}, {@code
 * "success"}). The scan may say "maybe" for text that merely mentions an error; the parse then
 * decides. It never says "no" for a body a rule above would flag.
 */
public final class SemanticFailureDetector {

    /** Characters of the carrying payload kept in {@link SemanticResult.Failure#rawSnippet()}. */
    public static final int SNIPPET_LIMIT = 8192;

    private static final ObjectReader STRICT_READER =
            Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private SemanticFailureDetector() {}

    /** Judges a whole body: a JSON document when it starts with '{' or '[', else SSE text. */
    public static SemanticResult detect(String body) {
        if (body == null || body.isBlank() || !mayContainFailureMarker(body)) {
            return SemanticResult.NO_FAILURE;
        }
        if (looksLikeJson(body)) {
            JsonNode node = parseOrNull(body);
            if (node != null) {
                return inspect(node, body);
            }
        }
        return detectSse(body);
    }

    /**
     * The streaming path's check of the first chunk, before anything reaches the client. Complete
     * frames are judged as in {@link #detect}; a trailing partial frame counts only when its {@code
     * event:} line already says error or its data already parses.
     */
    public static boolean firstChunkIsFailure(String chunk) {
        return detect(chunk).isFailure();
    }

    /** Judges an already parsed JSON document. */
    public static SemanticResult detectJson(JsonNode node) {
        if (node == null) {
            return SemanticResult.NO_FAILURE;
        }
        return inspect(node, node.toString());
    }

    /** Judges SSE text frame by frame; the first failing frame wins. */
    public static SemanticResult detectSse(String text) {
        if (text == null || text.isEmpty()) {
            return SemanticResult.NO_FAILURE;
        }
        SseFrame frame = new SseFrame();
        int length = text.length();
        int pos = 0;
        while (pos < length) {
            int newline = text.indexOf('\n', pos);
            int end = newline < 0 ? length : newline;
            int lineEnd = end > pos && text.charAt(end - 1) == '\r' ? end - 1 : end;
            if (lineEnd == pos) {
                SemanticResult result = frame.dispatch();
                if (result.isFailure()) {
                    return result;
                }
            } else if (text.charAt(pos) != ':') {
                frame.field(text.substring(pos, lineEnd));
            }
            pos = end + 1;
        }
        return frame.dispatch();
    }

    /**
     * The cheap pre-check: false proves no rule can fire. Every rule needs the word {@code error}
     * (as a key, a value or an SSE event name), {@code failed} or the key {@code "success"}; a
     * {@code "error": null} key alone (present in every Responses object) does not count.
     */
    static boolean mayContainFailureMarker(String text) {
        if (text.contains("failed") || text.contains("\"success\"")) {
            return true;
        }
        int at = text.indexOf("error");
        while (at >= 0) {
            if (!isNullValuedErrorKey(text, at)) {
                return true;
            }
            at = text.indexOf("error", at + 5);
        }
        return false;
    }

    private static boolean isNullValuedErrorKey(String text, int at) {
        int length = text.length();
        if (at == 0 || text.charAt(at - 1) != '"' || at + 5 >= length || text.charAt(at + 5) != '"') {
            return false;
        }
        int pos = skipWhitespace(text, at + 6);
        if (pos >= length || text.charAt(pos) != ':') {
            return false;
        }
        pos = skipWhitespace(text, pos + 1);
        return text.startsWith("null", pos);
    }

    private static int skipWhitespace(String text, int pos) {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
        return pos;
    }

    private static boolean looksLikeJson(String text) {
        int pos = skipWhitespace(text, 0);
        return pos < text.length() && (text.charAt(pos) == '{' || text.charAt(pos) == '[');
    }

    /** The document, or null when the text is not exactly one JSON value. */
    static JsonNode parseOrNull(String text) {
        try {
            return STRICT_READER.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    private static SemanticResult inspect(JsonNode node, String raw) {
        if (node.isArray()) {
            for (JsonNode element : node) {
                SemanticResult result = inspect(element, raw);
                if (result.isFailure()) {
                    return result;
                }
            }
            return SemanticResult.NO_FAILURE;
        }
        if (!node.isObject()) {
            return SemanticResult.NO_FAILURE;
        }
        JsonNode error = node.get("error");
        if (isPresentError(error) || (error != null && error.isBoolean() && error.booleanValue())) {
            return failure(ErrorFields.of(node), error, raw);
        }
        String type = ErrorFields.text(node.get("type"));
        JsonNode response = node.get("response");
        if ("response.failed".equals(type) || isFailedResponse(response)) {
            JsonNode carrier = response != null && response.isObject() ? response : node;
            return failure(ErrorFields.of(carrier), carrier.get("error"), raw);
        }
        if ("error".equals(type) || "error".equals(ErrorFields.text(node.get("object")))) {
            return failure(ErrorFields.of(node), error, raw);
        }
        JsonNode success = node.get("success");
        if (success != null && success.isBoolean() && !success.booleanValue() && !hasContent(node)) {
            return failure(ErrorFields.of(node), null, raw);
        }
        return SemanticResult.NO_FAILURE;
    }

    private static boolean isPresentError(JsonNode error) {
        if (error == null) {
            return false;
        }
        if (error.isObject()) {
            return !error.isEmpty();
        }
        return error.isTextual() && !error.asText().isBlank();
    }

    private static boolean isFailedResponse(JsonNode response) {
        return response != null
                && response.isObject()
                && ("failed".equals(ErrorFields.text(response.get("status"))) || isPresentError(response.get("error")));
    }

    private static boolean hasContent(JsonNode node) {
        for (String field : new String[] {"choices", "candidates", "content", "output"}) {
            JsonNode value = node.get(field);
            if (value != null && value.isArray() && !value.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static SemanticResult.Failure failure(ErrorFields fields, JsonNode error, String raw) {
        String message = fields.message();
        if (message == null) {
            // No human text: keep something stable for the fingerprint and the admin panel.
            message = fields.code() != null ? fields.code() : snippet(error != null ? error.toString() : raw, 512);
        }
        return new SemanticResult.Failure(message, fields.code(), fields.type(), snippet(raw, SNIPPET_LIMIT));
    }

    static String snippet(String text, int limit) {
        if (text == null) {
            return null;
        }
        return text.length() <= limit ? text : text.substring(0, limit) + "…";
    }

    /** One SSE event being assembled: its event name and data lines. */
    private static final class SseFrame {
        private String event;
        private StringBuilder data;
        private int dataLines;

        void field(String line) {
            int colon = line.indexOf(':');
            String name = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if ("event".equals(name)) {
                event = value.strip();
            } else if ("data".equals(name)) {
                if (data == null) {
                    data = new StringBuilder(value);
                } else {
                    data.append('\n').append(value);
                }
                dataLines++;
            }
        }

        SemanticResult dispatch() {
            String eventName = event;
            String payload = data == null ? null : data.toString();
            int lines = dataLines;
            event = null;
            data = null;
            dataLines = 0;
            boolean errorEvent = "error".equals(eventName) || "response.failed".equals(eventName);
            if (payload == null || payload.isBlank() || "[DONE]".equals(payload.strip())) {
                return errorEvent ? eventOnlyFailure(eventName, payload) : SemanticResult.NO_FAILURE;
            }
            if (!errorEvent && !mayContainFailureMarker(payload)) {
                return SemanticResult.NO_FAILURE;
            }
            JsonNode node = parseOrNull(payload);
            if (node != null) {
                SemanticResult result = inspect(node, payload);
                if (result.isFailure() || !errorEvent) {
                    return result;
                }
                return failure(ErrorFields.of(node), null, payload);
            }
            if (lines > 1) {
                // Frames without blank-line separators: judge each data line on its own.
                for (String line : payload.split("\n")) {
                    JsonNode lineNode = parseOrNull(line);
                    if (lineNode != null) {
                        SemanticResult result = inspect(lineNode, line);
                        if (result.isFailure()) {
                            return result;
                        }
                    }
                }
            }
            return errorEvent ? eventOnlyFailure(eventName, payload) : SemanticResult.NO_FAILURE;
        }

        private static SemanticResult eventOnlyFailure(String eventName, String payload) {
            String text = payload == null || payload.isBlank() ? "event: " + eventName : payload.strip();
            return new SemanticResult.Failure(snippet(text, 512), null, null, snippet(text, SNIPPET_LIMIT));
        }
    }
}
