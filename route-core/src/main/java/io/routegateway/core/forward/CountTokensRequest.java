package io.routegateway.core.forward;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An Anthropic {@code POST /v1/messages/count_tokens} body: its shape check and the text a local
 * estimate counts (system, messages — text blocks, tool_use input JSON, tool_result content — and
 * tool definitions). Images and documents carry no text here; the estimate leaves them out.
 */
public final class CountTokensRequest {

    /** Tokens added per message and per tool for the framing the text alone does not show. */
    public static final int PER_ITEM_OVERHEAD = 4;

    private CountTokensRequest() {}

    /** What makes the body unusable (the client's fault), or null when its shape is one to count. */
    public static String problem(JsonNode body) {
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray()) {
            return "messages must be an array";
        }
        for (JsonNode message : messages) {
            if (!message.isObject()) {
                return "each message must be an object";
            }
            JsonNode content = message.get("content");
            if (content == null || !(content.isTextual() || content.isArray())) {
                return "each message's content must be a string or an array of blocks";
            }
        }
        JsonNode system = body.get("system");
        if (system != null && !system.isNull() && !(system.isTextual() || system.isArray())) {
            return "system must be a string or an array of blocks";
        }
        JsonNode tools = body.get("tools");
        if (tools != null && !tools.isNull() && !tools.isArray()) {
            return "tools must be an array";
        }
        return null;
    }

    /** The pieces of text to count, in body order; call only on a body {@link #problem} accepts. */
    public static List<String> texts(JsonNode body) {
        List<String> out = new ArrayList<>();
        content(body.get("system"), out);
        for (JsonNode message : body.get("messages")) {
            content(message.get("content"), out);
        }
        JsonNode tools = body.get("tools");
        if (tools != null && tools.isArray()) {
            for (JsonNode tool : tools) {
                text(tool.get("name"), out);
                text(tool.get("description"), out);
                JsonNode schema = tool.get("input_schema");
                if (schema != null && !schema.isNull()) {
                    out.add(schema.toString());
                }
            }
        }
        return out;
    }

    /** Messages plus tools: each adds {@link #PER_ITEM_OVERHEAD}. */
    public static int items(JsonNode body) {
        JsonNode tools = body.get("tools");
        return body.get("messages").size() + (tools != null && tools.isArray() ? tools.size() : 0);
    }

    private static void content(JsonNode content, List<String> out) {
        if (content == null || content.isNull()) {
            return;
        }
        if (content.isTextual()) {
            out.add(content.asText());
            return;
        }
        if (!content.isArray()) {
            return;
        }
        for (JsonNode block : content) {
            if (!block.isObject()) {
                continue;
            }
            String type = block.path("type").asText("");
            switch (type) {
                case "text":
                    text(block.get("text"), out);
                    break;
                case "thinking":
                    text(block.get("thinking"), out);
                    break;
                case "tool_use":
                case "server_tool_use":
                    text(block.get("name"), out);
                    JsonNode input = block.get("input");
                    if (input != null && !input.isNull()) {
                        out.add(input.toString());
                    }
                    break;
                case "tool_result":
                    content(block.get("content"), out);
                    break;
                default:
                // images, documents, redacted thinking: no countable text
            }
        }
    }

    private static void text(JsonNode node, List<String> out) {
        if (node != null && node.isTextual()) {
            out.add(node.asText());
        }
    }
}
