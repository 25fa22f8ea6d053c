package io.routegateway.core.forward;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Gemini {@code POST /v1beta/models/{model}:countTokens} body: its shape check and the text a
 * local estimate counts. The body holds {@code contents}, or a whole {@code generateContentRequest}
 * (whose {@code systemInstruction} and {@code tools} count too); counted are text parts, function
 * calls (name and args JSON), function responses (name and response JSON) and function
 * declarations (JSON). Inline data and files carry no text here; the estimate leaves them out.
 */
public final class GeminiCountTokensRequest {

    private GeminiCountTokensRequest() {}

    /** What makes the body unusable (the client's fault), or null when its shape is one to count. */
    public static String problem(JsonNode body) {
        JsonNode request = body.get("generateContentRequest");
        if (request != null && !request.isNull()) {
            if (!request.isObject()) {
                return "generateContentRequest must be an object";
            }
            if (body.has("contents")) {
                return "send either contents or generateContentRequest, not both";
            }
            String problem = contentsProblem(request.get("contents"), "generateContentRequest.contents");
            if (problem != null) {
                return problem;
            }
            JsonNode system = request.get("systemInstruction");
            if (system != null && !system.isNull()) {
                String systemProblem = contentProblem(system, "generateContentRequest.systemInstruction");
                if (systemProblem != null) {
                    return systemProblem;
                }
            }
            JsonNode tools = request.get("tools");
            if (tools != null && !tools.isNull() && !tools.isArray()) {
                return "generateContentRequest.tools must be an array";
            }
            return null;
        }
        return contentsProblem(body.get("contents"), "contents");
    }

    private static String contentsProblem(JsonNode contents, String where) {
        if (contents == null || !contents.isArray()) {
            return where + " must be an array";
        }
        for (int i = 0; i < contents.size(); i++) {
            String problem = contentProblem(contents.get(i), where + "[" + i + "]");
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String contentProblem(JsonNode content, String where) {
        if (!content.isObject()) {
            return where + " must be an object";
        }
        JsonNode parts = content.get("parts");
        if (parts == null || !parts.isArray()) {
            return where + ".parts must be an array";
        }
        for (JsonNode part : parts) {
            if (!part.isObject()) {
                return where + ".parts must hold objects";
            }
            JsonNode text = part.get("text");
            if (text != null && !text.isNull() && !text.isTextual()) {
                return where + ".parts[].text must be a string";
            }
        }
        return null;
    }

    /** The pieces of text to count, in body order; call only on a body {@link #problem} accepts. */
    public static List<String> texts(JsonNode body) {
        List<String> out = new ArrayList<>();
        JsonNode request = body.get("generateContentRequest");
        JsonNode contents;
        if (request != null && request.isObject()) {
            JsonNode system = request.get("systemInstruction");
            if (system != null && system.isObject()) {
                parts(system, out);
            }
            JsonNode tools = request.get("tools");
            if (tools != null && tools.isArray()) {
                for (JsonNode tool : tools) {
                    JsonNode declarations = tool.get("functionDeclarations");
                    if (declarations != null && declarations.isArray()) {
                        for (JsonNode declaration : declarations) {
                            out.add(declaration.toString());
                        }
                    }
                }
            }
            contents = request.get("contents");
        } else {
            contents = body.get("contents");
        }
        for (JsonNode content : contents) {
            parts(content, out);
        }
        return out;
    }

    /** Contents plus function declarations: each adds {@link CountTokensRequest#PER_ITEM_OVERHEAD}. */
    public static int items(JsonNode body) {
        JsonNode request = body.get("generateContentRequest");
        JsonNode source = request != null && request.isObject() ? request : body;
        int items = source.get("contents").size();
        JsonNode tools = source.get("tools");
        if (tools != null && tools.isArray()) {
            for (JsonNode tool : tools) {
                JsonNode declarations = tool.get("functionDeclarations");
                items += declarations != null && declarations.isArray() ? declarations.size() : 0;
            }
        }
        return items;
    }

    private static void parts(JsonNode content, List<String> out) {
        for (JsonNode part : content.get("parts")) {
            JsonNode text = part.get("text");
            if (text != null && text.isTextual()) {
                out.add(text.asText());
            }
            JsonNode call = part.get("functionCall");
            if (call != null && call.isObject()) {
                named(call, "args", out);
            }
            JsonNode response = part.get("functionResponse");
            if (response != null && response.isObject()) {
                named(response, "response", out);
            }
        }
    }

    private static void named(JsonNode node, String payload, List<String> out) {
        JsonNode name = node.get("name");
        if (name != null && name.isTextual()) {
            out.add(name.asText());
        }
        JsonNode value = node.get(payload);
        if (value != null && !value.isNull()) {
            out.add(value.toString());
        }
    }
}
