package io.routegateway.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Replies.Protocol;

/**
 * Client errors that quote the request back, in each vendor's wording: OpenAI ("The model `X` does
 * not exist", "Unrecognized request argument supplied: X"), Anthropic ("X: Extra inputs are not
 * permitted") and Gemini ({@code Unknown name "X"}, "models/X is not found"). Everything a vendor
 * would complain about is quoted, one sentence each, so a test can plant text in any of those
 * places and see it come back.
 */
final class Echoes {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Top-level fields each protocol knows; any other is quoted as unknown. */
    private static final Map<Protocol, Set<String>> KNOWN = Map.of(
            Protocol.OPENAI_CHAT,
            Set.of(
                    "model",
                    "messages",
                    "stream",
                    "stream_options",
                    "max_tokens",
                    "temperature",
                    "tools",
                    "tool_choice"),
            Protocol.OPENAI_RESPONSES,
            Set.of("model", "input", "instructions", "stream", "max_output_tokens", "temperature", "tools"),
            Protocol.ANTHROPIC,
            Set.of("model", "messages", "system", "max_tokens", "stream", "temperature", "tools"),
            Protocol.GEMINI,
            Set.of("contents", "tools", "generationConfig", "systemInstruction", "safetySettings"));

    private Echoes() {}

    static String error(Protocol protocol, int status, String model, JsonNode request) {
        List<String> sentences = new ArrayList<>();
        request.fieldNames().forEachRemaining(field -> {
            if (!KNOWN.get(protocol).contains(field)) {
                sentences.add(unknownField(protocol, field));
            }
        });
        for (String tool : toolNames(protocol, request)) {
            sentences.add(badToolName(protocol, tool));
        }
        String prompt = promptText(protocol, request);
        if (prompt != null) {
            sentences.add(badPrompt(protocol, prompt));
        }
        sentences.add(unknownModel(protocol, model));
        return body(protocol, status, String.join("; ", sentences));
    }

    private static String unknownField(Protocol protocol, String field) {
        switch (protocol) {
            case ANTHROPIC:
                return field + ": Extra inputs are not permitted";
            case GEMINI:
                return "Invalid JSON payload received. Unknown name \"" + field + "\": Cannot find field.";
            default:
                return "Unrecognized request argument supplied: " + field;
        }
    }

    private static String badToolName(Protocol protocol, String name) {
        switch (protocol) {
            case ANTHROPIC:
                return "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$' (input_value='" + name
                        + "')";
            case GEMINI:
                return "* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function name \""
                        + name + "\"";
            default:
                return "Invalid 'tools[0].function.name': string does not match pattern. Got '" + name + "'";
        }
    }

    private static String badPrompt(Protocol protocol, String text) {
        switch (protocol) {
            case ANTHROPIC:
                return "messages.0.content: Input should be a valid list (input_value='" + text + "')";
            case GEMINI:
                return "Invalid value at 'contents[0].parts[0].text' (" + text + ")";
            default:
                return "Invalid value for 'messages[0].content': '" + text + "'";
        }
    }

    private static String unknownModel(Protocol protocol, String model) {
        switch (protocol) {
            case ANTHROPIC:
                return "model: " + model;
            case GEMINI:
                return "models/" + model + " is not found for API version v1beta, or is not supported for"
                        + " generateContent.";
            default:
                return "The model `" + model + "` does not exist or you do not have access to it.";
        }
    }

    private static List<String> toolNames(Protocol protocol, JsonNode request) {
        List<String> names = new ArrayList<>();
        for (JsonNode tool : request.path("tools")) {
            if (protocol == Protocol.GEMINI) {
                tool.path("functionDeclarations").forEach(declaration -> addText(names, declaration.path("name")));
            } else if (protocol == Protocol.OPENAI_CHAT) {
                addText(names, tool.path("function").path("name"));
            } else {
                addText(names, tool.path("name"));
            }
        }
        return names;
    }

    private static String promptText(Protocol protocol, JsonNode request) {
        JsonNode text;
        switch (protocol) {
            case OPENAI_RESPONSES:
                text = request.path("input");
                break;
            case GEMINI:
                text = request.path("contents").path(0).path("parts").path(0).path("text");
                break;
            default:
                text = request.path("messages").path(0).path("content");
        }
        return text.isTextual() ? text.asText() : null;
    }

    private static void addText(List<String> into, JsonNode node) {
        if (node.isTextual()) {
            into.add(node.asText());
        }
    }

    private static String body(Protocol protocol, int status, String message) {
        ObjectNode root = JSON.createObjectNode();
        switch (protocol) {
            case ANTHROPIC: {
                root.put("type", "error");
                ObjectNode error = root.putObject("error");
                error.put("type", status == 404 ? "not_found_error" : "invalid_request_error");
                error.put("message", message);
                break;
            }
            case GEMINI: {
                ObjectNode error = root.putObject("error");
                error.put("code", status);
                error.put("message", message);
                error.put("status", status == 404 ? "NOT_FOUND" : "INVALID_ARGUMENT");
                break;
            }
            default: {
                ObjectNode error = root.putObject("error");
                error.put("message", message);
                error.put("type", "invalid_request_error");
                error.putNull("param");
                error.put("code", status == 404 ? "model_not_found" : "invalid_value");
            }
        }
        return root.toString();
    }
}
