package io.routegateway.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.demo.Replies.Protocol;

/**
 * The demo's agent turn, in every protocol it speaks: a request that offers tools and whose last
 * message is not a tool result is answered with a call of the first tool (arguments made from the
 * tool's schema); a request whose last message is a tool result gets a final text. Buffered and
 * streamed, with each protocol's own finish reason and terminal event.
 */
final class ToolCalls {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The call the demo makes: the tool's name and the arguments built from its schema. */
    record Call(String id, String name, ObjectNode arguments) {

        String argumentsJson() {
            return arguments.toString();
        }
    }

    private ToolCalls() {}

    /** The call to answer {@code request} with, or null when the request offers no tool or ends in a tool result. */
    static Call callFor(Protocol protocol, JsonNode request) {
        if (endsWithToolResult(protocol, request)) {
            return null;
        }
        JsonNode tool = firstTool(protocol, request);
        if (tool == null) {
            return null;
        }
        String name;
        JsonNode schema;
        switch (protocol) {
            case OPENAI_CHAT:
                name = tool.path("function").path("name").asText();
                schema = tool.path("function").path("parameters");
                break;
            case ANTHROPIC:
                name = tool.path("name").asText();
                schema = tool.path("input_schema");
                break;
            case GEMINI:
                name = tool.path("name").asText();
                schema = tool.has("parametersJsonSchema") ? tool.path("parametersJsonSchema") : tool.path("parameters");
                break;
            default:
                name = tool.path("name").asText();
                schema = tool.path("parameters");
        }
        if (name.isEmpty()) {
            return null;
        }
        String id = protocol == Protocol.ANTHROPIC ? "toolu_demo_1" : "call_demo_1";
        return new Call(id, name, arguments(schema));
    }

    /** The last message (or input item) of the request is the client's answer to a tool call. */
    static boolean endsWithToolResult(Protocol protocol, JsonNode request) {
        switch (protocol) {
            case OPENAI_CHAT:
                return "tool".equals(last(request.path("messages")).path("role").asText());
            case OPENAI_RESPONSES: {
                String type = last(request.path("input")).path("type").asText();
                return type.equals("function_call_output") || type.equals("custom_tool_call_output");
            }
            case ANTHROPIC: {
                for (JsonNode block : last(request.path("messages")).path("content")) {
                    if ("tool_result".equals(block.path("type").asText())) {
                        return true;
                    }
                }
                return false;
            }
            default: {
                for (JsonNode part : last(request.path("contents")).path("parts")) {
                    if (part.has("functionResponse")) {
                        return true;
                    }
                }
                return false;
            }
        }
    }

    /** The final text after a tool result: the usual answer, saying it read the result. */
    static String afterResult(String text) {
        return text + ", after the tool result";
    }

    private static JsonNode firstTool(Protocol protocol, JsonNode request) {
        for (JsonNode tool : request.path("tools")) {
            switch (protocol) {
                case GEMINI:
                    for (JsonNode declaration : tool.path("functionDeclarations")) {
                        return declaration;
                    }
                    break;
                case ANTHROPIC:
                    // client tools have a name and a schema; server tools (web_search, …) a type of their own
                    if (tool.has("input_schema")) {
                        return tool;
                    }
                    break;
                default:
                    if ("function".equals(tool.path("type").asText())) {
                        return tool;
                    }
            }
        }
        return null;
    }

    private static JsonNode last(JsonNode array) {
        return array.isArray() && !array.isEmpty() ? array.get(array.size() - 1) : JSON.missingNode();
    }

    /** One value per property of the schema: the first enum value, else a value of the property's type. */
    static ObjectNode arguments(JsonNode schema) {
        ObjectNode arguments = JSON.createObjectNode();
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            arguments.set(property.getKey(), value(property.getKey(), property.getValue(), 0));
        }
        return arguments;
    }

    private static JsonNode value(String name, JsonNode schema, int depth) {
        if (schema.path("enum").isArray() && !schema.path("enum").isEmpty()) {
            return schema.path("enum").get(0);
        }
        String type = schema.path("type").isArray()
                ? schema.path("type").path(0).asText()
                : schema.path("type").asText("string");
        switch (type.toLowerCase()) {
            case "integer":
                return JSON.getNodeFactory().numberNode(1);
            case "number":
                return JSON.getNodeFactory().numberNode(1.5);
            case "boolean":
                return JSON.getNodeFactory().booleanNode(true);
            case "array": {
                ArrayNode array = JSON.createArrayNode();
                if (depth < 4) {
                    array.add(value(name, schema.path("items"), depth + 1));
                }
                return array;
            }
            case "object":
                return depth < 4 ? arguments(schema) : JSON.createObjectNode();
            default:
                return JSON.getNodeFactory().textNode("demo " + name);
        }
    }

    // ---- bodies --------------------------------------------------------------------------

    static String answer(Protocol protocol, String model, Call call) {
        ObjectNode root = JSON.createObjectNode();
        switch (protocol) {
            case OPENAI_RESPONSES: {
                root.put("id", "resp_demo_tool").put("object", "response").put("status", "completed");
                root.put("model", model);
                functionCallItem(root.putArray("output").addObject(), call, "completed");
                root.putObject("usage")
                        .put("input_tokens", 12)
                        .put("output_tokens", 8)
                        .put("total_tokens", 20);
                break;
            }
            case ANTHROPIC: {
                root.put("id", "msg_demo_tool").put("type", "message").put("role", "assistant");
                root.put("model", model);
                root.putArray("content")
                        .addObject()
                        .put("type", "tool_use")
                        .put("id", call.id())
                        .put("name", call.name())
                        .set("input", call.arguments());
                root.put("stop_reason", "tool_use").putNull("stop_sequence");
                root.putObject("usage").put("input_tokens", 12).put("output_tokens", 8);
                break;
            }
            case GEMINI: {
                ObjectNode candidate = root.putArray("candidates").addObject();
                geminiCall(candidate.putObject("content"), call);
                candidate.put("finishReason", "STOP");
                geminiUsage(root);
                root.put("modelVersion", model).put("responseId", "demo-tool");
                break;
            }
            default: {
                root.put("id", "chatcmpl-demo-tool")
                        .put("object", "chat.completion")
                        .put("created", 1767225600)
                        .put("model", model);
                ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
                ObjectNode message = choice.putObject("message").put("role", "assistant");
                message.putNull("content");
                chatCall(message.putArray("tool_calls").addObject(), call, true);
                choice.put("finish_reason", "tool_calls");
                chatUsage(root);
            }
        }
        return root.toString();
    }

    /** The SSE frames of a streamed call; the last element is the terminal event. */
    static List<String> stream(Protocol protocol, String model, Call call) {
        List<String> frames = new ArrayList<>();
        switch (protocol) {
            case OPENAI_RESPONSES: {
                ObjectNode created = JSON.createObjectNode().put("type", "response.created");
                created.putObject("response")
                        .put("id", "resp_demo_tool")
                        .put("model", model)
                        .put("status", "in_progress");
                frames.add(event("response.created", created));
                ObjectNode added = JSON.createObjectNode()
                        .put("type", "response.output_item.added")
                        .put("output_index", 0);
                functionCallItem(added.putObject("item"), call, "in_progress").put("arguments", "");
                frames.add(event("response.output_item.added", added));
                frames.add(event(
                        "response.function_call_arguments.delta",
                        JSON.createObjectNode()
                                .put("type", "response.function_call_arguments.delta")
                                .put("item_id", "fc_demo_1")
                                .put("output_index", 0)
                                .put("delta", call.argumentsJson())));
                frames.add(event(
                        "response.function_call_arguments.done",
                        JSON.createObjectNode()
                                .put("type", "response.function_call_arguments.done")
                                .put("item_id", "fc_demo_1")
                                .put("output_index", 0)
                                .put("arguments", call.argumentsJson())));
                ObjectNode done = JSON.createObjectNode()
                        .put("type", "response.output_item.done")
                        .put("output_index", 0);
                functionCallItem(done.putObject("item"), call, "completed");
                frames.add(event("response.output_item.done", done));
                ObjectNode completed = JSON.createObjectNode().put("type", "response.completed");
                ObjectNode response = completed
                        .putObject("response")
                        .put("id", "resp_demo_tool")
                        .put("model", model)
                        .put("status", "completed");
                response.putObject("usage")
                        .put("input_tokens", 12)
                        .put("output_tokens", 8)
                        .put("total_tokens", 20);
                frames.add(event("response.completed", completed));
                break;
            }
            case ANTHROPIC: {
                ObjectNode start = JSON.createObjectNode().put("type", "message_start");
                ObjectNode message = start.putObject("message")
                        .put("id", "msg_demo_tool")
                        .put("type", "message")
                        .put("role", "assistant")
                        .put("model", model);
                message.putArray("content");
                message.putNull("stop_reason").putNull("stop_sequence");
                message.putObject("usage").put("input_tokens", 12).put("output_tokens", 1);
                frames.add(event("message_start", start));
                ObjectNode blockStart = JSON.createObjectNode()
                        .put("type", "content_block_start")
                        .put("index", 0);
                blockStart
                        .putObject("content_block")
                        .put("type", "tool_use")
                        .put("id", call.id())
                        .put("name", call.name())
                        .putObject("input");
                frames.add(event("content_block_start", blockStart));
                ObjectNode delta = JSON.createObjectNode()
                        .put("type", "content_block_delta")
                        .put("index", 0);
                delta.putObject("delta").put("type", "input_json_delta").put("partial_json", call.argumentsJson());
                frames.add(event("content_block_delta", delta));
                frames.add(event(
                        "content_block_stop",
                        JSON.createObjectNode()
                                .put("type", "content_block_stop")
                                .put("index", 0)));
                ObjectNode messageDelta = JSON.createObjectNode().put("type", "message_delta");
                messageDelta.putObject("delta").put("stop_reason", "tool_use").putNull("stop_sequence");
                messageDelta.putObject("usage").put("output_tokens", 8);
                frames.add(event("message_delta", messageDelta));
                frames.add(event("message_stop", JSON.createObjectNode().put("type", "message_stop")));
                break;
            }
            case GEMINI: {
                // Gemini sends a call whole, in one chunk
                frames.add("data: " + answer(protocol, model, call) + "\n\n");
                break;
            }
            default: {
                ObjectNode first = chatChunk(model);
                ObjectNode delta = ((ObjectNode) first.path("choices").get(0)).putObject("delta");
                delta.put("role", "assistant").putNull("content");
                chatCall(delta.putArray("tool_calls").addObject().put("index", 0), call, true);
                frames.add("data: " + first + "\n\n");
                ObjectNode last = chatChunk(model);
                ((ObjectNode) last.path("choices").get(0)).put("finish_reason", "tool_calls");
                chatUsage(last);
                frames.add("data: " + last + "\n\n");
                frames.add("data: [DONE]\n\n");
            }
        }
        return frames;
    }

    private static ObjectNode functionCallItem(ObjectNode item, Call call, String status) {
        return item.put("type", "function_call")
                .put("id", "fc_demo_1")
                .put("call_id", call.id())
                .put("name", call.name())
                .put("arguments", call.argumentsJson())
                .put("status", status);
    }

    private static void chatCall(ObjectNode node, Call call, boolean withId) {
        if (withId) {
            node.put("id", call.id()).put("type", "function");
        }
        node.putObject("function").put("name", call.name()).put("arguments", call.argumentsJson());
    }

    private static void geminiCall(ObjectNode content, Call call) {
        content.put("role", "model");
        // the Gemini API gives its calls no id; clients pair results by name
        content.putArray("parts")
                .addObject()
                .putObject("functionCall")
                .put("name", call.name())
                .set("args", call.arguments());
    }

    private static void geminiUsage(ObjectNode root) {
        root.putObject("usageMetadata")
                .put("promptTokenCount", 12)
                .put("candidatesTokenCount", 8)
                .put("totalTokenCount", 20);
    }

    private static void chatUsage(ObjectNode root) {
        root.putObject("usage")
                .put("prompt_tokens", 12)
                .put("completion_tokens", 8)
                .put("total_tokens", 20);
    }

    private static ObjectNode chatChunk(String model) {
        ObjectNode chunk = JSON.createObjectNode()
                .put("id", "chatcmpl-demo-tool")
                .put("object", "chat.completion.chunk")
                .put("created", 1767225600)
                .put("model", model);
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.putObject("delta");
        choice.putNull("finish_reason");
        return chunk;
    }

    private static String event(String name, ObjectNode data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
