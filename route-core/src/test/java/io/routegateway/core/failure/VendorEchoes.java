package io.routegateway.core.failure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.failure.EchoedMarkerTests.Shape;
import io.routegateway.core.failure.EchoedMarkerTests.Vendor;
import io.routegateway.core.json.Json;

/** How OpenAI, Anthropic and Gemini quote client input back in their 4xx error bodies. */
final class VendorEchoes {

    private VendorEchoes() {}

    static String errorBody(Vendor vendor, Shape shape, String x) {
        return switch (vendor) {
            case OPENAI -> openAi(shape, x);
            case ANTHROPIC -> anthropic(shape, x);
            case GEMINI -> gemini(shape, x);
        };
    }

    private static String openAi(Shape shape, String x) {
        String message = switch (shape) {
            case MODEL_NAME -> "The model `" + x + "` does not exist or you do not have access to it.";
            case EXTRA_FIELD -> "Unrecognized request argument supplied: " + x;
            case PROMPT_TEXT -> "Invalid value for 'messages[0].content': '" + x + "' is not supported.";
            case TOOL_NAME ->
                "Invalid 'tools[0].function.name': string does not match pattern. Expected a"
                        + " string that matches the pattern '^[a-zA-Z0-9_-]+$'. Got '" + x + "'.";
        };
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", "invalid_request_error");
        error.putNull("param");
        error.put("code", shape == Shape.MODEL_NAME ? "model_not_found" : null);
        return root.toString();
    }

    private static String anthropic(Shape shape, String x) {
        String message = switch (shape) {
            case MODEL_NAME -> "model: " + x;
            case EXTRA_FIELD -> x + ": Extra inputs are not permitted";
            case PROMPT_TEXT -> "messages.0.content: Input should be a valid list (input_value='" + x + "')";
            case TOOL_NAME ->
                "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'" + " (input_value='" + x
                        + "')";
        };
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("type", "error");
        ObjectNode error = root.putObject("error");
        error.put("type", shape == Shape.MODEL_NAME ? "not_found_error" : "invalid_request_error");
        error.put("message", message);
        return root.toString();
    }

    private static String gemini(Shape shape, String x) {
        String message = switch (shape) {
            case MODEL_NAME ->
                "models/" + x + " is not found for API version v1beta, or is not supported for generateContent.";
            case EXTRA_FIELD -> "Invalid JSON payload received. Unknown name \"" + x + "\": Cannot find field.";
            case PROMPT_TEXT -> "Invalid value at 'contents[0].parts[0].text' (" + x + ")";
            case TOOL_NAME ->
                "* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid" + " function name \"" + x
                        + "\". Must start with a letter or an underscore.";
        };
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("code", shape == Shape.MODEL_NAME ? 404 : 400);
        error.put("message", message);
        error.put("status", shape == Shape.MODEL_NAME ? "NOT_FOUND" : "INVALID_ARGUMENT");
        return root.toString();
    }
}
