package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;

import static io.routegateway.core.bridge.Nodes.object;
import static io.routegateway.core.bridge.Nodes.put;

/**
 * OpenAI Responses ({@code POST /v1/responses}). A bridged Responses request is stateless: stored
 * state ({@code previous_response_id}, {@code store: true}, {@code conversation}, {@code
 * background}) and the built-in tools exist only on a Responses upstream and are refused as
 * unsupported.
 */
public final class ResponsesCodec implements ProtocolCodec {

    @Override
    public Protocol protocol() {
        return Protocol.OPENAI_RESPONSES;
    }

    // ---- requests ----

    @Override
    public ChatRequest decodeRequest(JsonNode body, String pathModel, boolean stream) {
        if (Nodes.field(body, "previous_response_id") != null) {
            throw new UnsupportedConversionException("previous_response_id (stored response state)");
        }
        if (Boolean.TRUE.equals(Nodes.bool(body, "store"))) {
            throw new UnsupportedConversionException("store: true (stored response state)");
        }
        if (Nodes.field(body, "conversation") != null) {
            throw new UnsupportedConversionException("conversation (stored conversation state)");
        }
        if (Boolean.TRUE.equals(Nodes.bool(body, "background"))) {
            throw new UnsupportedConversionException("background responses");
        }
        if (Nodes.field(body, "prompt") != null) {
            throw new UnsupportedConversionException("stored prompt templates");
        }
        List<String> system = new ArrayList<>();
        String instructions = Nodes.text(body, "instructions");
        if (instructions != null && !instructions.isEmpty()) {
            system.add(instructions);
        }
        List<Message> messages = new ArrayList<>();
        JsonNode input = body.get("input");
        if (input != null && input.isTextual()) {
            messages.add(new Message(Role.USER, List.of(new Part.Text(input.asText()))));
        } else if (input != null && input.isArray()) {
            for (JsonNode item : input) {
                inputItem(item, system, messages);
            }
        } else if (input != null && !input.isNull()) {
            throw new BridgeException("input must be a string or an array");
        }
        List<ToolDefinition> tools = new ArrayList<>();
        for (JsonNode tool : Nodes.list(body, "tools")) {
            String type = tool.path("type").asText();
            if (!type.equals("function")) {
                throw new UnsupportedConversionException("built-in tool " + type);
            }
            tools.add(new ToolDefinition(
                    Nodes.text(tool, "name"), Nodes.text(tool, "description"), tool.get("parameters")));
        }
        JsonNode reasoning = body.get("reasoning");
        String effort = reasoning == null ? null : Nodes.text(reasoning, "effort");
        return new ChatRequest(
                Nodes.text(body, "model"),
                system,
                messages,
                tools,
                toolChoice(body),
                outputFormat(body.path("text").get("format")),
                List.of(),
                Nodes.integer(body, "max_output_tokens"),
                Nodes.decimal(body, "temperature"),
                Nodes.decimal(body, "top_p"),
                effort == null ? null : new ReasoningConfig(effort, null),
                stream,
                true,
                Nodes.text(body, "user"));
    }

    private static void inputItem(JsonNode item, List<String> system, List<Message> messages) {
        String type = item.path("type").asText("message");
        switch (type) {
            case "message" -> {
                String role = item.path("role").asText();
                JsonNode content = item.get("content");
                switch (role) {
                    case "system", "developer" -> system.add(contentText(content));
                    case "user" -> append(messages, Role.USER, inputParts(content));
                    case "assistant" -> append(messages, Role.ASSISTANT, inputParts(content));
                    default -> throw new BridgeException("unknown message role " + role);
                }
            }
            case "function_call" ->
                append(
                        messages,
                        Role.ASSISTANT,
                        List.of(new Part.ToolCall(
                                Nodes.text(item, "call_id"),
                                Nodes.text(item, "name"),
                                Nodes.text(item, "arguments"),
                                null)));
            case "function_call_output" -> {
                JsonNode output = item.get("output");
                List<Part> content = output != null && output.isArray()
                        ? inputParts(output)
                        : List.of(new Part.Text(output == null ? "" : output.asText()));
                append(
                        messages,
                        Role.USER,
                        List.of(new Part.ToolResult(Nodes.text(item, "call_id"), null, content, false)));
            }
            case "reasoning" -> {
                StringBuilder text = new StringBuilder();
                for (JsonNode summary : Nodes.list(item, "summary")) {
                    text.append(summary.path("text").asText());
                }
                append(messages, Role.ASSISTANT, List.of(new Part.Reasoning(text.toString(), null, null)));
            }
            default -> throw new UnsupportedConversionException("input item type " + type);
        }
    }

    /** Items of one role in a row form one message (a turn with text and calls, or several results). */
    private static void append(List<Message> messages, Role role, List<Part> parts) {
        if (!messages.isEmpty()) {
            Message last = messages.get(messages.size() - 1);
            boolean lastIsResults = last.parts().stream().allMatch(p -> p instanceof Part.ToolResult);
            boolean theseAreResults = parts.stream().allMatch(p -> p instanceof Part.ToolResult);
            if (last.role() == role && (role == Role.ASSISTANT || (lastIsResults && theseAreResults))) {
                List<Part> merged = new ArrayList<>(last.parts());
                merged.addAll(parts);
                messages.set(messages.size() - 1, new Message(role, merged));
                return;
            }
        }
        messages.add(new Message(role, parts));
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
            text.append(part.path("text").asText(""));
        }
        return text.toString();
    }

    private static List<Part> inputParts(JsonNode content) {
        List<Part> parts = new ArrayList<>();
        if (content == null || content.isNull()) {
            return parts;
        }
        if (content.isTextual()) {
            parts.add(new Part.Text(content.asText()));
            return parts;
        }
        for (JsonNode part : content) {
            String type = part.path("type").asText();
            switch (type) {
                case "input_text", "output_text" ->
                    parts.add(new Part.Text(part.path("text").asText()));
                case "refusal" -> parts.add(new Part.Text(part.path("refusal").asText()));
                case "input_image" -> {
                    String url = Nodes.text(part, "image_url");
                    if (url == null) {
                        throw new UnsupportedConversionException("input_image by file_id (stored files)");
                    }
                    parts.add(Nodes.image(url));
                }
                default -> throw new UnsupportedConversionException("content part type " + type);
            }
        }
        return parts;
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
        if ("function".equals(choice.path("type").asText())) {
            return new ToolChoice(ToolChoice.Mode.TOOL, Nodes.text(choice, "name"), parallel);
        }
        throw new UnsupportedConversionException(
                "tool_choice " + choice.path("type").asText());
    }

    private static OutputFormat outputFormat(JsonNode format) {
        if (format == null || !format.isObject()) {
            return null;
        }
        return switch (format.path("type").asText()) {
            case "json_object" -> OutputFormat.JSON_OBJECT;
            case "json_schema" ->
                new OutputFormat(Nodes.text(format, "name"), format.get("schema"), Nodes.bool(format, "strict"));
            default -> null;
        };
    }

    @Override
    public ObjectNode encodeRequest(ChatRequest request, String model) {
        if (!request.stop().isEmpty()) {
            throw new UnsupportedConversionException("stop sequences (Responses has none)");
        }
        ObjectNode body = object();
        body.put("model", model);
        if (!request.system().isEmpty()) {
            body.put("instructions", request.systemText());
        }
        ArrayNode input = body.putArray("input");
        for (Message message : request.messages()) {
            ArrayNode content = Nodes.array();
            String role = message.role() == Role.USER ? "user" : "assistant";
            for (Part part : message.parts()) {
                if (part instanceof Part.Text text) {
                    content.addObject()
                            .put("type", message.role() == Role.USER ? "input_text" : "output_text")
                            .put("text", text.text());
                } else if (part instanceof Part.Image image) {
                    content.addObject().put("type", "input_image").put("image_url", image.asUrl());
                } else if (part instanceof Part.ToolCall call) {
                    flush(input, role, content);
                    input.addObject()
                            .put("type", "function_call")
                            .put("call_id", call.id())
                            .put("name", call.name())
                            .put("arguments", call.arguments() == null ? "{}" : call.arguments());
                } else if (part instanceof Part.ToolResult result) {
                    flush(input, role, content);
                    input.addObject()
                            .put("type", "function_call_output")
                            .put("call_id", result.callId())
                            .put("output", result.text());
                }
            }
            flush(input, role, content);
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode entry = tools.addObject().put("type", "function").put("name", tool.name());
                put(entry, "description", tool.description());
                entry.set("parameters", tool.parameters() != null ? tool.parameters() : OpenAiChatCodec.emptySchema());
                // Responses makes function tools strict unless told otherwise; the client's
                // protocol did not promise a strict schema.
                entry.put("strict", false);
            }
        }
        ToolChoice choice = request.toolChoice();
        if (choice != null && !request.tools().isEmpty()) {
            switch (choice.mode()) {
                case NONE -> body.put("tool_choice", "none");
                case REQUIRED -> body.put("tool_choice", "required");
                case TOOL ->
                    body.putObject("tool_choice").put("type", "function").put("name", choice.name());
                case AUTO -> body.put("tool_choice", "auto");
            }
            put(body, "parallel_tool_calls", choice.parallel());
        }
        OutputFormat format = request.outputFormat();
        if (format != null) {
            ObjectNode node = body.putObject("text").putObject("format");
            if (format.hasSchema()) {
                node.put("type", "json_schema").put("name", format.name() != null ? format.name() : "response");
                node.set("schema", format.schema());
                put(node, "strict", format.strict());
            } else {
                node.put("type", "json_object");
            }
        }
        put(body, "max_output_tokens", request.maxTokens());
        put(body, "temperature", request.temperature());
        put(body, "top_p", request.topP());
        ReasoningConfig reasoning = request.reasoning();
        if (reasoning != null && !reasoning.disabled()) {
            body.putObject("reasoning").put("effort", reasoning.level()).put("summary", "auto");
        }
        put(body, "user", request.user());
        body.put("store", false);
        if (request.stream()) {
            body.put("stream", true);
        }
        return body;
    }

    private static void flush(ArrayNode input, String role, ArrayNode content) {
        if (content.isEmpty()) {
            return;
        }
        ObjectNode message = input.addObject().put("type", "message").put("role", role);
        message.set("content", content.deepCopy());
        content.removeAll();
    }

    // ---- responses ----

    @Override
    public ChatResponse decodeResponse(JsonNode body) {
        JsonNode output = body.get("output");
        if (output == null || !output.isArray()) {
            throw new BridgeException("response without output");
        }
        List<Part> parts = new ArrayList<>();
        boolean calls = false;
        for (JsonNode item : output) {
            switch (item.path("type").asText()) {
                case "message" -> {
                    for (JsonNode content : item.path("content")) {
                        String text = content.has("text")
                                ? content.path("text").asText()
                                : content.path("refusal").asText("");
                        parts.add(new Part.Text(text));
                    }
                }
                case "function_call" -> {
                    calls = true;
                    parts.add(new Part.ToolCall(
                            Nodes.text(item, "call_id"),
                            Nodes.text(item, "name"),
                            Nodes.text(item, "arguments"),
                            null));
                }
                case "reasoning" -> {
                    StringBuilder text = new StringBuilder();
                    for (JsonNode summary : item.path("summary")) {
                        text.append(summary.path("text").asText());
                    }
                    parts.add(new Part.Reasoning(text.toString(), null, null));
                }
                default -> {}
            }
        }
        return new ChatResponse(
                Nodes.text(body, "id"),
                Nodes.text(body, "model"),
                parts,
                finishReason(Nodes.text(body, "status"), body.path("incomplete_details"), calls),
                Usage.fromUsageObject(body.get("usage")));
    }

    static FinishReason finishReason(String status, JsonNode incomplete, boolean calls) {
        if ("incomplete".equals(status)) {
            return "content_filter".equals(incomplete.path("reason").asText())
                    ? FinishReason.CONTENT_FILTER
                    : FinishReason.LENGTH;
        }
        return calls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
    }

    static ObjectNode usage(Usage usage) {
        ObjectNode node = object();
        node.put("input_tokens", usage.input());
        node.putObject("input_tokens_details").put("cached_tokens", Usage.orZero(usage.cacheReadTokens()));
        node.put("output_tokens", usage.output());
        node.putObject("output_tokens_details").put("reasoning_tokens", Usage.orZero(usage.reasoningTokens()));
        node.put("total_tokens", usage.input() + usage.output());
        return node;
    }

    @Override
    public ObjectNode encodeResponse(ChatResponse response, Instant now) {
        String id = response.id() != null ? response.id() : "resp_" + now.toEpochMilli();
        ArrayNode output = Nodes.array();
        StringBuilder text = null;
        int items = 0;
        for (Part part : response.content()) {
            if (part instanceof Part.Text t) {
                if (text == null) {
                    text = new StringBuilder();
                }
                text.append(t.text());
            } else if (part instanceof Part.Reasoning r && r.text() != null) {
                output.add(reasoningItem("rs_" + id + "_" + items++, r.text()));
            } else if (part instanceof Part.ToolCall call) {
                if (text != null) {
                    output.add(messageItem("msg_" + id + "_" + items++, text.toString()));
                    text = null;
                }
                output.add(functionCallItem("fc_" + id + "_" + items++, call.id(), call.name(), call.arguments()));
            }
        }
        if (text != null) {
            output.add(messageItem("msg_" + id + "_" + items, text.toString()));
        }
        return responseObject(
                id,
                response.model(),
                now,
                status(response.finishReason()),
                response.finishReason(),
                output,
                response.usage());
    }

    private static String status(FinishReason reason) {
        return reason == FinishReason.LENGTH || reason == FinishReason.CONTENT_FILTER ? "incomplete" : "completed";
    }

    static ObjectNode responseObject(
            String id, String model, Instant now, String status, FinishReason reason, ArrayNode output, Usage usage) {
        ObjectNode body = object();
        body.put("id", id);
        body.put("object", "response");
        body.put("created_at", now.getEpochSecond());
        body.put("status", status);
        body.putNull("error");
        if ("incomplete".equals(status)) {
            body.putObject("incomplete_details")
                    .put("reason", reason == FinishReason.CONTENT_FILTER ? "content_filter" : "max_output_tokens");
        } else {
            body.putNull("incomplete_details");
        }
        body.putNull("instructions");
        body.putObject("metadata");
        body.put("model", model);
        body.set("output", output);
        body.put("parallel_tool_calls", true);
        body.putNull("temperature");
        body.put("tool_choice", "auto");
        body.putArray("tools");
        body.putNull("top_p");
        if (usage != null) {
            body.set("usage", usage(usage));
        } else {
            body.putNull("usage");
        }
        return body;
    }

    static ObjectNode messageItem(String id, String text) {
        ObjectNode item = object().put("type", "message")
                .put("id", id)
                .put("status", "completed")
                .put("role", "assistant");
        item.putArray("content").add(outputText(text));
        return item;
    }

    static ObjectNode outputText(String text) {
        ObjectNode part = object().put("type", "output_text").put("text", text);
        part.putArray("annotations");
        return part;
    }

    static ObjectNode functionCallItem(String id, String callId, String name, String arguments) {
        return object().put("type", "function_call")
                .put("id", id)
                .put("call_id", callId)
                .put("name", name)
                .put("arguments", arguments == null ? "{}" : arguments)
                .put("status", "completed");
    }

    static ObjectNode reasoningItem(String id, String text) {
        ObjectNode item = object().put("type", "reasoning").put("id", id);
        ArrayNode summary = item.putArray("summary");
        if (!text.isEmpty()) {
            summary.addObject().put("type", "summary_text").put("text", text);
        }
        return item;
    }

    // ---- errors ----

    @Override
    public BridgeError decodeError(int status, String body) {
        return OpenAiChatCodec.decodeOpenAiError(status, body);
    }

    @Override
    public ErrorReply encodeError(BridgeError error) {
        return OpenAiChatCodec.openAiError(error);
    }

    // ---- streams ----

    @Override
    public StreamDecoder streamDecoder() {
        return new Decoder();
    }

    @Override
    public StreamEncoder streamEncoder(ChatRequest request, Instant now) {
        return new Encoder(now);
    }

    /** Responses stream events ({@code response.created} … {@code response.completed}) to canonical events. */
    static final class Decoder implements StreamDecoder {
        private final Map<Integer, Integer> toolByOutputIndex = new HashMap<>();
        private int toolCalls;
        private boolean finished;

        @Override
        public List<StreamEvent> decode(SseEvent event) {
            if (finished) {
                return List.of();
            }
            JsonNode data = Nodes.parseStrict(event.data(), "response stream event");
            String type = data.path("type").asText(event.event() == null ? "" : event.event());
            switch (type) {
                case "response.created" -> {
                    JsonNode response = data.path("response");
                    return List.of(new StreamEvent.Started(
                            Nodes.text(response, "id"), Nodes.text(response, "model"), Usage.NONE));
                }
                case "response.output_item.added" -> {
                    JsonNode item = data.path("item");
                    if (!"function_call".equals(item.path("type").asText())) {
                        return List.of();
                    }
                    int index = toolCalls++;
                    toolByOutputIndex.put(data.path("output_index").asInt(), index);
                    List<StreamEvent> events = new ArrayList<>(2);
                    events.add(new StreamEvent.ToolCallStarted(
                            index, Nodes.text(item, "call_id"), Nodes.text(item, "name"), null));
                    String arguments = item.path("arguments").asText("");
                    if (!arguments.isEmpty()) {
                        events.add(new StreamEvent.ToolCallArguments(index, arguments));
                    }
                    return events;
                }
                case "response.function_call_arguments.delta" -> {
                    Integer index =
                            toolByOutputIndex.get(data.path("output_index").asInt());
                    String delta = data.path("delta").asText("");
                    return index == null || delta.isEmpty()
                            ? List.of()
                            : List.of(new StreamEvent.ToolCallArguments(index, delta));
                }
                case "response.output_text.delta", "response.refusal.delta" -> {
                    return List.of(new StreamEvent.TextDelta(data.path("delta").asText("")));
                }
                case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" -> {
                    return List.of(
                            new StreamEvent.ReasoningDelta(data.path("delta").asText("")));
                }
                case "response.completed", "response.incomplete" -> {
                    finished = true;
                    JsonNode response = data.path("response");
                    FinishReason reason = finishReason(
                            Nodes.text(response, "status"), response.path("incomplete_details"), toolCalls > 0);
                    return List.of(new StreamEvent.Finished(reason, Usage.fromUsageObject(response.get("usage"))));
                }
                case "response.failed" -> {
                    finished = true;
                    JsonNode error = data.path("response").path("error");
                    return List.of(new StreamEvent.Failed(
                            BridgeError.of(500, error.path("message").asText("response failed"))));
                }
                case "error" -> {
                    finished = true;
                    String message = data.path("message")
                            .asText(data.path("error").path("message").asText("stream error"));
                    return List.of(new StreamEvent.Failed(BridgeError.of(500, message)));
                }
                default -> {
                    return List.of();
                }
            }
        }
    }

    /**
     * Canonical events to Responses stream events. Each output item is opened, streamed and closed
     * in order; items' text is kept (appended, never re-parsed) because {@code output_item.done}
     * and {@code response.completed} repeat it whole.
     */
    static final class Encoder implements StreamEncoder {
        private enum Item {
            NONE,
            MESSAGE,
            REASONING,
            CALL
        }

        private final Instant now;
        private final ArrayNode output = Nodes.array();
        private String id;
        private String model;
        private boolean started;
        private int sequence;
        private Item open = Item.NONE;
        private String itemId;
        private StringBuilder text;
        private String callId;
        private String callName;

        Encoder(Instant now) {
            this.now = now;
            this.id = "resp_" + now.toEpochMilli();
        }

        @Override
        public List<SseEvent> encode(StreamEvent event) {
            List<SseEvent> out = new ArrayList<>(4);
            if (event instanceof StreamEvent.Started s) {
                id = s.id() != null ? s.id() : id;
                model = s.model();
                start(out);
                return out;
            }
            if (!started) {
                start(out);
            }
            if (event instanceof StreamEvent.TextDelta t) {
                if (open != Item.MESSAGE) {
                    close(out);
                    openItem(
                            out,
                            Item.MESSAGE,
                            object().put("type", "message")
                                    .put("role", "assistant")
                                    .set("content", Nodes.array()));
                    ObjectNode added = typed("response.content_part.added")
                            .put("item_id", itemId)
                            .put("output_index", output.size())
                            .put("content_index", 0);
                    added.set("part", outputText(""));
                    out.add(emit(added));
                }
                text.append(t.text());
                out.add(emit(typed("response.output_text.delta")
                        .put("item_id", itemId)
                        .put("output_index", output.size())
                        .put("content_index", 0)
                        .put("delta", t.text())));
            } else if (event instanceof StreamEvent.ReasoningDelta r) {
                if (open != Item.REASONING) {
                    close(out);
                    openItem(
                            out,
                            Item.REASONING,
                            object().put("type", "reasoning").set("summary", Nodes.array()));
                    ObjectNode added = typed("response.reasoning_summary_part.added")
                            .put("item_id", itemId)
                            .put("output_index", output.size())
                            .put("summary_index", 0);
                    added.putObject("part").put("type", "summary_text").put("text", "");
                    out.add(emit(added));
                }
                text.append(r.text());
                out.add(emit(typed("response.reasoning_summary_text.delta")
                        .put("item_id", itemId)
                        .put("output_index", output.size())
                        .put("summary_index", 0)
                        .put("delta", r.text())));
            } else if (event instanceof StreamEvent.ToolCallStarted call) {
                close(out);
                callId = call.id();
                callName = call.name();
                openItem(
                        out,
                        Item.CALL,
                        object().put("type", "function_call")
                                .put("call_id", call.id())
                                .put("name", call.name())
                                .put("arguments", ""));
            } else if (event instanceof StreamEvent.ToolCallArguments args) {
                if (open == Item.CALL) {
                    text.append(args.fragment());
                    out.add(emit(typed("response.function_call_arguments.delta")
                            .put("item_id", itemId)
                            .put("output_index", output.size())
                            .put("delta", args.fragment())));
                }
            } else if (event instanceof StreamEvent.Finished f) {
                close(out);
                String status = status(f.reason());
                ObjectNode response = responseObject(id, model, now, status, f.reason(), output, f.usage());
                out.add(emit(typed("incomplete".equals(status) ? "response.incomplete" : "response.completed")
                        .set("response", response)));
            } else if (event instanceof StreamEvent.Failed failed) {
                close(out);
                ObjectNode response = responseObject(id, model, now, "failed", FinishReason.OTHER, output, null);
                response.putObject("error")
                        .put("code", "server_error")
                        .put("message", failed.error().message());
                out.add(emit(typed("response.failed").set("response", response)));
            }
            return out;
        }

        private void start(List<SseEvent> out) {
            started = true;
            ObjectNode response = responseObject(id, model, now, "in_progress", FinishReason.STOP, Nodes.array(), null);
            out.add(emit(typed("response.created").set("response", response)));
            out.add(emit(typed("response.in_progress").set("response", response)));
        }

        private void openItem(List<SseEvent> out, Item kind, ObjectNode item) {
            open = kind;
            String prefix = kind == Item.MESSAGE ? "msg_" : kind == Item.REASONING ? "rs_" : "fc_";
            itemId = prefix + id + "_" + output.size();
            item.put("id", itemId);
            item.put("status", "in_progress");
            text = new StringBuilder();
            ObjectNode added = typed("response.output_item.added").put("output_index", output.size());
            added.set("item", item);
            out.add(emit(added));
        }

        private void close(List<SseEvent> out) {
            if (open == Item.NONE) {
                return;
            }
            int index = output.size();
            String value = text.toString();
            ObjectNode item;
            switch (open) {
                case MESSAGE -> {
                    out.add(emit(typed("response.output_text.done")
                            .put("item_id", itemId)
                            .put("output_index", index)
                            .put("content_index", 0)
                            .put("text", value)));
                    ObjectNode done = typed("response.content_part.done")
                            .put("item_id", itemId)
                            .put("output_index", index)
                            .put("content_index", 0);
                    done.set("part", outputText(value));
                    out.add(emit(done));
                    item = messageItem(itemId, value);
                }
                case REASONING -> {
                    out.add(emit(typed("response.reasoning_summary_text.done")
                            .put("item_id", itemId)
                            .put("output_index", index)
                            .put("summary_index", 0)
                            .put("text", value)));
                    item = reasoningItem(itemId, value);
                }
                default -> {
                    out.add(emit(typed("response.function_call_arguments.done")
                            .put("item_id", itemId)
                            .put("output_index", index)
                            .put("arguments", value)));
                    item = functionCallItem(itemId, callId, callName, value);
                }
            }
            ObjectNode done = typed("response.output_item.done").put("output_index", index);
            done.set("item", item);
            out.add(emit(done));
            output.add(item);
            open = Item.NONE;
        }

        private ObjectNode typed(String type) {
            return object().put("type", type);
        }

        private SseEvent emit(ObjectNode data) {
            data.put("sequence_number", sequence++);
            return new SseEvent(data.path("type").asText(), Nodes.write(data));
        }
    }
}
