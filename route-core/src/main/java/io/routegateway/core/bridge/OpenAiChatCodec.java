package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;

import static io.routegateway.core.bridge.Nodes.array;
import static io.routegateway.core.bridge.Nodes.object;
import static io.routegateway.core.bridge.Nodes.put;

/** OpenAI Chat Completions ({@code POST /v1/chat/completions}). */
public final class OpenAiChatCodec implements ProtocolCodec {

    @Override
    public Protocol protocol() {
        return Protocol.OPENAI_CHAT;
    }

    // ---- requests ----

    @Override
    public ChatRequest decodeRequest(JsonNode body, String pathModel, boolean stream) {
        Integer n = Nodes.integer(body, "n");
        if (n != null && n > 1) {
            throw new UnsupportedConversionException("n > 1 (several choices)");
        }
        for (String modality : Nodes.strings(body, "modalities")) {
            if (!modality.equals("text")) {
                throw new UnsupportedConversionException("output modality " + modality);
            }
        }
        if (Nodes.field(body, "audio") != null) {
            throw new UnsupportedConversionException("audio output");
        }
        if (Nodes.field(body, "web_search_options") != null) {
            throw new UnsupportedConversionException("web_search_options (built-in web search)");
        }
        List<String> system = new ArrayList<>();
        List<Message> messages = new ArrayList<>();
        for (JsonNode message : Nodes.list(body, "messages")) {
            String role = Nodes.text(message, "role");
            if (role == null) {
                throw new BridgeException("message without role");
            }
            switch (role) {
                case "system", "developer" -> system.add(contentText(message.get("content")));
                case "user" -> messages.add(new Message(Role.USER, userParts(message.get("content"))));
                case "assistant" -> messages.add(new Message(Role.ASSISTANT, assistantParts(message)));
                case "tool", "function" -> addToolResult(messages, message);
                default -> throw new BridgeException("unknown message role " + role);
            }
        }
        return new ChatRequest(
                Nodes.text(body, "model"),
                system,
                messages,
                tools(body),
                toolChoice(body),
                outputFormat(body.get("response_format")),
                Nodes.strings(body, "stop"),
                Nodes.integer(body, "max_completion_tokens", "max_tokens"),
                Nodes.decimal(body, "temperature"),
                Nodes.decimal(body, "top_p"),
                reasoning(body),
                stream,
                Boolean.TRUE.equals(Nodes.bool(body.path("stream_options"), "include_usage")),
                Nodes.text(body, "user"));
    }

    private static ReasoningConfig reasoning(JsonNode body) {
        String effort = Nodes.text(body, "reasoning_effort");
        return effort == null ? null : new ReasoningConfig(effort, null);
    }

    private static String contentText(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            if (part.path("text").isTextual()) {
                text.append(part.path("text").asText());
            } else if (part.path("refusal").isTextual()) {
                text.append(part.path("refusal").asText());
            }
        }
        return text.toString();
    }

    private static List<Part> userParts(JsonNode content) {
        List<Part> parts = new ArrayList<>();
        if (content == null || content.isNull()) {
            return parts;
        }
        if (content.isTextual()) {
            parts.add(new Part.Text(content.asText()));
            return parts;
        }
        if (!content.isArray()) {
            throw new BridgeException("message content must be a string or an array");
        }
        for (JsonNode part : content) {
            String type = part.path("type").asText("");
            switch (type) {
                case "text" -> parts.add(new Part.Text(part.path("text").asText()));
                case "image_url" -> {
                    JsonNode image = part.get("image_url");
                    parts.add(Nodes.image(
                            image != null && image.isTextual() ? image.asText() : Nodes.text(image, "url")));
                }
                default -> throw new UnsupportedConversionException("content part type " + type);
            }
        }
        return parts;
    }

    private static List<Part> assistantParts(JsonNode message) {
        List<Part> parts = new ArrayList<>();
        String reasoning = Nodes.text(message, "reasoning_content");
        if (reasoning != null && !reasoning.isEmpty()) {
            parts.add(new Part.Reasoning(reasoning, null, null));
        }
        String text = contentText(message.get("content"));
        if (!text.isEmpty()) {
            parts.add(new Part.Text(text));
        }
        for (JsonNode call : Nodes.list(message, "tool_calls")) {
            String type = call.path("type").asText("function");
            if (!type.equals("function")) {
                throw new UnsupportedConversionException("tool call type " + type);
            }
            JsonNode function = call.path("function");
            parts.add(new Part.ToolCall(
                    Nodes.text(call, "id"), Nodes.text(function, "name"), Nodes.text(function, "arguments"), null));
        }
        JsonNode legacy = message.get("function_call");
        if (legacy != null && legacy.isObject()) {
            String name = Nodes.text(legacy, "name");
            parts.add(new Part.ToolCall(name, name, Nodes.text(legacy, "arguments"), null));
        }
        return parts;
    }

    /** Consecutive tool messages become one user message of results (the other protocols' form). */
    private static void addToolResult(List<Message> messages, JsonNode message) {
        String callId = Nodes.text(message, "tool_call_id");
        String name = Nodes.text(message, "name");
        if (callId == null) {
            callId = name;
        }
        JsonNode content = message.get("content");
        List<Part> result = content != null && content.isArray()
                ? userParts(content)
                : List.of(new Part.Text(contentText(content)));
        Part.ToolResult part = new Part.ToolResult(callId, name, result, false);
        if (!messages.isEmpty()) {
            Message last = messages.get(messages.size() - 1);
            if (last.role() == Role.USER
                    && !last.parts().isEmpty()
                    && last.parts().stream().allMatch(p -> p instanceof Part.ToolResult)) {
                List<Part> merged = new ArrayList<>(last.parts());
                merged.add(part);
                messages.set(messages.size() - 1, new Message(Role.USER, merged));
                return;
            }
        }
        messages.add(new Message(Role.USER, List.of(part)));
    }

    private static List<ToolDefinition> tools(JsonNode body) {
        List<ToolDefinition> tools = new ArrayList<>();
        for (JsonNode tool : Nodes.list(body, "tools")) {
            String type = tool.path("type").asText("function");
            if (!type.equals("function")) {
                throw new UnsupportedConversionException("tool type " + type);
            }
            JsonNode function = tool.path("function");
            tools.add(new ToolDefinition(
                    Nodes.text(function, "name"), Nodes.text(function, "description"), function.get("parameters")));
        }
        for (JsonNode function : Nodes.list(body, "functions")) {
            tools.add(new ToolDefinition(
                    Nodes.text(function, "name"), Nodes.text(function, "description"), function.get("parameters")));
        }
        return tools;
    }

    private static ToolChoice toolChoice(JsonNode body) {
        JsonNode choice = body.get("tool_choice");
        Boolean parallel = Nodes.bool(body, "parallel_tool_calls");
        if (choice == null || choice.isNull()) {
            return parallel == null ? null : new ToolChoice(ToolChoice.Mode.AUTO, null, parallel);
        }
        if (choice.isTextual()) {
            return switch (choice.asText()) {
                case "none" -> new ToolChoice(ToolChoice.Mode.NONE, null, parallel);
                case "required" -> new ToolChoice(ToolChoice.Mode.REQUIRED, null, parallel);
                default -> new ToolChoice(ToolChoice.Mode.AUTO, null, parallel);
            };
        }
        String name = Nodes.text(choice.path("function"), "name");
        if (name == null) {
            throw new UnsupportedConversionException(
                    "tool_choice " + choice.path("type").asText());
        }
        return new ToolChoice(ToolChoice.Mode.TOOL, name, parallel);
    }

    private static OutputFormat outputFormat(JsonNode format) {
        if (format == null || format.isNull()) {
            return null;
        }
        return switch (format.path("type").asText("text")) {
            case "json_object" -> OutputFormat.JSON_OBJECT;
            case "json_schema" -> {
                JsonNode schema = format.path("json_schema");
                yield new OutputFormat(Nodes.text(schema, "name"), schema.get("schema"), Nodes.bool(schema, "strict"));
            }
            default -> null;
        };
    }

    @Override
    public ObjectNode encodeRequest(ChatRequest request, String model) {
        ObjectNode body = object();
        body.put("model", model);
        ArrayNode messages = body.putArray("messages");
        for (String instruction : request.system()) {
            messages.addObject().put("role", "system").put("content", instruction);
        }
        for (Message message : request.messages()) {
            if (message.role() == Role.ASSISTANT) {
                messages.add(assistantMessage(message.parts()));
            } else {
                ArrayNode content = array();
                for (Part part : message.parts()) {
                    if (part instanceof Part.ToolResult result) {
                        messages.addObject()
                                .put("role", "tool")
                                .put("tool_call_id", result.callId())
                                .put("content", result.text());
                    } else if (part instanceof Part.Text text) {
                        content.addObject().put("type", "text").put("text", text.text());
                    } else if (part instanceof Part.Image image) {
                        content.addObject()
                                .put("type", "image_url")
                                .putObject("image_url")
                                .put("url", image.asUrl());
                    }
                }
                if (!content.isEmpty()) {
                    ObjectNode user = messages.addObject().put("role", "user");
                    if (content.size() == 1 && content.get(0).has("text")) {
                        user.set("content", content.get(0).get("text"));
                    } else {
                        user.set("content", content);
                    }
                }
            }
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function");
                function.put("name", tool.name());
                put(function, "description", tool.description());
                function.set("parameters", tool.parameters() != null ? tool.parameters() : emptySchema());
            }
        }
        ToolChoice choice = request.toolChoice();
        if (choice != null) {
            switch (choice.mode()) {
                case NONE -> body.put("tool_choice", "none");
                case REQUIRED -> body.put("tool_choice", "required");
                case TOOL ->
                    body.putObject("tool_choice")
                            .put("type", "function")
                            .putObject("function")
                            .put("name", choice.name());
                case AUTO -> {
                    if (!request.tools().isEmpty()) {
                        body.put("tool_choice", "auto");
                    }
                }
            }
            if (choice.parallel() != null && !request.tools().isEmpty()) {
                body.put("parallel_tool_calls", choice.parallel());
            }
        }
        OutputFormat format = request.outputFormat();
        if (format != null) {
            ObjectNode responseFormat = body.putObject("response_format");
            if (format.hasSchema()) {
                ObjectNode schema = responseFormat.put("type", "json_schema").putObject("json_schema");
                schema.put("name", format.name() != null ? format.name() : "response");
                schema.set("schema", format.schema());
                put(schema, "strict", format.strict());
            } else {
                responseFormat.put("type", "json_object");
            }
        }
        if (!request.stop().isEmpty()) {
            ArrayNode stop = body.putArray("stop");
            request.stop().forEach(stop::add);
        }
        ReasoningConfig reasoning = request.reasoning();
        if (reasoning != null && !reasoning.disabled()) {
            body.put("reasoning_effort", reasoning.level());
            put(body, "max_completion_tokens", request.maxTokens());
        } else {
            put(body, "max_tokens", request.maxTokens());
        }
        put(body, "temperature", request.temperature());
        put(body, "top_p", request.topP());
        put(body, "user", request.user());
        if (request.stream()) {
            body.put("stream", true);
            // Always asked for, so that a bridged stream's tokens are settled; the client only
            // sees the usage frame if it asked for it.
            body.putObject("stream_options").put("include_usage", true);
        }
        return body;
    }

    static ObjectNode emptySchema() {
        ObjectNode schema = object().put("type", "object");
        schema.putObject("properties");
        return schema;
    }

    private static ObjectNode assistantMessage(List<Part> parts) {
        ObjectNode message = object().put("role", "assistant");
        StringBuilder text = new StringBuilder();
        ArrayNode calls = array();
        for (Part part : parts) {
            if (part instanceof Part.Text t) {
                text.append(t.text());
            } else if (part instanceof Part.ToolCall call) {
                ObjectNode entry = calls.addObject().put("id", call.id()).put("type", "function");
                entry.putObject("function")
                        .put("name", call.name())
                        .put("arguments", call.arguments() == null ? "{}" : call.arguments());
            }
        }
        if (text.length() > 0 || calls.isEmpty()) {
            message.put("content", text.toString());
        } else {
            message.putNull("content");
        }
        if (!calls.isEmpty()) {
            message.set("tool_calls", calls);
        }
        return message;
    }

    // ---- responses ----

    @Override
    public ChatResponse decodeResponse(JsonNode body) {
        JsonNode choices = body.get("choices");
        if (choices == null || !choices.isArray()) {
            throw new BridgeException("chat completion without choices");
        }
        JsonNode choice = choices.size() > 0 ? choices.get(0) : object();
        JsonNode message = choice.path("message");
        List<Part> content = assistantParts(message);
        String refusal = Nodes.text(message, "refusal");
        if (refusal != null && !refusal.isEmpty() && content.stream().noneMatch(p -> p instanceof Part.Text)) {
            content = new ArrayList<>(content);
            content.add(new Part.Text(refusal));
        }
        return new ChatResponse(
                Nodes.text(body, "id"),
                Nodes.text(body, "model"),
                content,
                finishReason(Nodes.text(choice, "finish_reason")),
                Usage.fromUsageObject(body.get("usage")));
    }

    static FinishReason finishReason(String reason) {
        if (reason == null) {
            return FinishReason.STOP;
        }
        return switch (reason) {
            case "stop" -> FinishReason.STOP;
            case "length" -> FinishReason.LENGTH;
            case "tool_calls", "function_call" -> FinishReason.TOOL_CALLS;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    static String finishReason(FinishReason reason) {
        return switch (reason) {
            case LENGTH -> "length";
            case TOOL_CALLS -> "tool_calls";
            case CONTENT_FILTER -> "content_filter";
            default -> "stop";
        };
    }

    static ObjectNode usage(Usage usage) {
        ObjectNode node = object();
        node.put("prompt_tokens", usage.input());
        node.put("completion_tokens", usage.output());
        node.put("total_tokens", usage.input() + usage.output());
        node.putObject("prompt_tokens_details").put("cached_tokens", Usage.orZero(usage.cacheReadTokens()));
        node.putObject("completion_tokens_details").put("reasoning_tokens", Usage.orZero(usage.reasoningTokens()));
        return node;
    }

    @Override
    public ObjectNode encodeResponse(ChatResponse response, Instant now) {
        ObjectNode body = object();
        body.put("id", response.id() != null ? response.id() : "chatcmpl-" + now.toEpochMilli());
        body.put("object", "chat.completion");
        body.put("created", now.getEpochSecond());
        body.put("model", response.model());
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = assistantMessage(response.content());
        StringBuilder reasoning = new StringBuilder();
        for (Part part : response.content()) {
            if (part instanceof Part.Reasoning r && r.text() != null) {
                reasoning.append(r.text());
            }
        }
        if (reasoning.length() > 0) {
            message.put("reasoning_content", reasoning.toString());
        }
        message.putNull("refusal");
        choice.set("message", message);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason(response.finishReason()));
        body.set("usage", usage(response.usage()));
        return body;
    }

    // ---- errors ----

    @Override
    public BridgeError decodeError(int status, String body) {
        return decodeOpenAiError(status, body);
    }

    static BridgeError decodeOpenAiError(int status, String body) {
        return BridgeError.of(status, Nodes.errorMessage(Nodes.parse(body), body));
    }

    @Override
    public ErrorReply encodeError(BridgeError error) {
        return openAiError(error);
    }

    /**
     * OpenAI's envelope (Chat and Responses alike), {@code {"error":{"message","type","param":null,
     * "code"}}}: a refusal's {@code type} and {@code code} are the gateway's own, an upstream's
     * error gets the ones its status stands for. 529 is Anthropic's alone; OpenAI's clients know
     * it as 503.
     */
    static ErrorReply openAiError(BridgeError error) {
        int status = error.status() == 529 ? 503 : error.status();
        ObjectNode body = object();
        ObjectNode inner = body.putObject("error");
        inner.put("message", error.message());
        inner.put("type", error.gatewayType() != null ? error.gatewayType() : openAiType(status));
        inner.putNull("param");
        inner.put("code", error.gatewayCode() != null ? error.gatewayCode() : openAiCode(status));
        return new ErrorReply(status, body);
    }

    /**
     * OpenAI's error type for a status. OpenAI documents no type of its own for a timeout (its SDKs
     * raise a timeout only for their own client-side one): 408 is a 4xx like any other, 504 a
     * {@code server_error}.
     */
    private static String openAiType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            default -> status >= 400 && status < 500 ? "invalid_request_error" : "server_error";
        };
    }

    private static String openAiCode(int status) {
        return switch (status) {
            case 401 -> "invalid_api_key";
            case 403 -> "permission_denied";
            case 404 -> "model_not_found";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_exceeded";
            case 503 -> "overloaded";
            default -> status >= 400 && status < 500 ? "invalid_request" : "server_error";
        };
    }

    // ---- streams ----

    @Override
    public StreamDecoder streamDecoder() {
        return new Decoder();
    }

    @Override
    public StreamEncoder streamEncoder(ChatRequest request, Instant now) {
        return new Encoder(request.includeUsage(), now);
    }

    /** {@code chat.completion.chunk} frames and the {@code [DONE]} marker to canonical events. */
    static final class Decoder implements StreamDecoder {
        private boolean started;
        private boolean finished;
        private String finishReason;
        private Usage usage = Usage.NONE;

        @Override
        public List<StreamEvent> decode(SseEvent event) {
            if (finished) {
                return List.of();
            }
            String data = event.data().trim();
            if (data.equals("[DONE]")) {
                return finish();
            }
            JsonNode chunk = Nodes.parseStrict(data, "chat completion chunk");
            List<StreamEvent> events = new ArrayList<>(2);
            if (chunk.has("error")) {
                finished = true;
                events.add(new StreamEvent.Failed(BridgeError.of(500, Nodes.errorMessage(chunk, data))));
                return events;
            }
            if (!started) {
                started = true;
                events.add(new StreamEvent.Started(Nodes.text(chunk, "id"), Nodes.text(chunk, "model"), Usage.NONE));
            }
            JsonNode usageNode = chunk.get("usage");
            if (usageNode != null && usageNode.isObject()) {
                usage = usage.merge(Usage.fromUsageObject(usageNode));
            }
            JsonNode choices = chunk.path("choices");
            if (choices.isArray() && choices.size() > 0) {
                JsonNode choice = choices.get(0);
                JsonNode delta = choice.path("delta");
                String reasoning = Nodes.text(delta, "reasoning_content", "reasoning");
                if (reasoning != null && !reasoning.isEmpty()) {
                    events.add(new StreamEvent.ReasoningDelta(reasoning));
                }
                String content = Nodes.text(delta, "content");
                if (content != null && !content.isEmpty()) {
                    events.add(new StreamEvent.TextDelta(content));
                }
                for (JsonNode call : Nodes.list(delta, "tool_calls")) {
                    int index = call.path("index").asInt(0);
                    JsonNode function = call.path("function");
                    String id = Nodes.text(call, "id");
                    if (id != null) {
                        events.add(new StreamEvent.ToolCallStarted(index, id, Nodes.text(function, "name"), null));
                    }
                    String arguments = Nodes.text(function, "arguments");
                    if (arguments != null && !arguments.isEmpty()) {
                        events.add(new StreamEvent.ToolCallArguments(index, arguments));
                    }
                }
                String reason = Nodes.text(choice, "finish_reason");
                if (reason != null) {
                    finishReason = reason;
                }
            }
            return events;
        }

        /** A finish reason seen without {@code [DONE]} still ends the response (it is a terminal marker). */
        @Override
        public List<StreamEvent> end() {
            return finished || finishReason == null ? List.of() : finish();
        }

        private List<StreamEvent> finish() {
            finished = true;
            return List.of(new StreamEvent.Finished(finishReason(finishReason), usage));
        }
    }

    /** Canonical events to {@code chat.completion.chunk} frames, ending with {@code [DONE]}. */
    static final class Encoder implements StreamEncoder {
        private final boolean includeUsage;
        private final long created;
        private String id;
        private String model;
        private boolean started;

        Encoder(boolean includeUsage, Instant now) {
            this.includeUsage = includeUsage;
            this.created = now.getEpochSecond();
            this.id = "chatcmpl-" + now.toEpochMilli();
        }

        @Override
        public List<SseEvent> encode(StreamEvent event) {
            List<SseEvent> out = new ArrayList<>(2);
            if (event instanceof StreamEvent.Started s) {
                id = s.id() != null ? s.id() : id;
                model = s.model();
                started = true;
                ObjectNode delta = object().put("role", "assistant").put("content", "");
                out.add(chunk(delta, null));
                return out;
            }
            if (!started) {
                started = true;
                out.add(chunk(object().put("role", "assistant").put("content", ""), null));
            }
            if (event instanceof StreamEvent.TextDelta t) {
                out.add(chunk(object().put("content", t.text()), null));
            } else if (event instanceof StreamEvent.ReasoningDelta r) {
                out.add(chunk(object().put("reasoning_content", r.text()), null));
            } else if (event instanceof StreamEvent.ToolCallStarted call) {
                ObjectNode delta = object();
                ObjectNode entry = delta.putArray("tool_calls").addObject();
                entry.put("index", call.index()).put("id", call.id()).put("type", "function");
                entry.putObject("function").put("name", call.name()).put("arguments", "");
                out.add(chunk(delta, null));
            } else if (event instanceof StreamEvent.ToolCallArguments args) {
                ObjectNode delta = object();
                ObjectNode entry = delta.putArray("tool_calls").addObject();
                entry.put("index", args.index());
                entry.putObject("function").put("arguments", args.fragment());
                out.add(chunk(delta, null));
            } else if (event instanceof StreamEvent.Finished f) {
                out.add(chunk(object(), finishReason(f.reason())));
                if (includeUsage) {
                    ObjectNode usage = frame();
                    usage.putArray("choices");
                    usage.set("usage", usage(f.usage()));
                    out.add(SseEvent.data(Nodes.write(usage)));
                }
                out.add(SseEvent.data("[DONE]"));
            } else if (event instanceof StreamEvent.Failed failed) {
                out.add(SseEvent.data(Nodes.write(openAiError(failed.error()).body())));
            }
            return out;
        }

        private ObjectNode frame() {
            ObjectNode chunk = object();
            chunk.put("id", id);
            chunk.put("object", "chat.completion.chunk");
            chunk.put("created", created);
            chunk.put("model", model);
            return chunk;
        }

        private SseEvent chunk(ObjectNode delta, String finishReason) {
            ObjectNode chunk = frame();
            ObjectNode choice = chunk.putArray("choices").addObject();
            choice.put("index", 0);
            choice.set("delta", delta);
            choice.putNull("logprobs");
            if (finishReason == null) {
                choice.putNull("finish_reason");
            } else {
                choice.put("finish_reason", finishReason);
            }
            return SseEvent.data(Nodes.write(chunk));
        }
    }
}
