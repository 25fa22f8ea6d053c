package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;

import static io.routegateway.core.bridge.Nodes.object;
import static io.routegateway.core.bridge.Nodes.put;

/** Anthropic Messages ({@code POST /v1/messages}). */
public final class AnthropicCodec implements ProtocolCodec {

    /** Anthropic requires {@code max_tokens}; used when the client did not set one. */
    public static final int DEFAULT_MAX_TOKENS = 8192;

    /** Anthropic's smallest thinking budget. */
    static final int MIN_THINKING_BUDGET = 1024;

    @Override
    public Protocol protocol() {
        return Protocol.ANTHROPIC_MESSAGES;
    }

    // ---- requests ----

    @Override
    public ChatRequest decodeRequest(JsonNode body, String pathModel, boolean stream) {
        List<String> system = new ArrayList<>();
        JsonNode systemNode = body.get("system");
        if (systemNode != null && systemNode.isTextual()) {
            system.add(systemNode.asText());
        } else if (systemNode != null && systemNode.isArray()) {
            for (JsonNode block : systemNode) {
                system.add(block.path("text").asText(""));
            }
        }
        List<Message> messages = new ArrayList<>();
        for (JsonNode message : Nodes.list(body, "messages")) {
            String role = Nodes.text(message, "role");
            if (!"user".equals(role) && !"assistant".equals(role)) {
                throw new BridgeException("message role must be user or assistant");
            }
            messages.add(new Message("user".equals(role) ? Role.USER : Role.ASSISTANT, blocks(message.get("content"))));
        }
        List<ToolDefinition> tools = new ArrayList<>();
        for (JsonNode tool : Nodes.list(body, "tools")) {
            String type = tool.path("type").asText("custom");
            if (!type.equals("custom")) {
                throw new UnsupportedConversionException("built-in tool " + type);
            }
            tools.add(new ToolDefinition(
                    Nodes.text(tool, "name"), Nodes.text(tool, "description"), tool.get("input_schema")));
        }
        if (!Nodes.list(body, "mcp_servers").isEmpty()) {
            throw new UnsupportedConversionException("mcp_servers");
        }
        return new ChatRequest(
                Nodes.text(body, "model"),
                system,
                messages,
                tools,
                toolChoice(body.get("tool_choice")),
                outputFormat(body.get("output_format")),
                Nodes.strings(body, "stop_sequences"),
                Nodes.integer(body, "max_tokens"),
                Nodes.decimal(body, "temperature"),
                Nodes.decimal(body, "top_p"),
                thinking(body.get("thinking")),
                stream,
                true,
                Nodes.text(body.path("metadata"), "user_id"));
    }

    private static ReasoningConfig thinking(JsonNode thinking) {
        if (thinking == null || !thinking.isObject()) {
            return null;
        }
        String type = thinking.path("type").asText();
        if (type.equals("disabled")) {
            return new ReasoningConfig("none", 0);
        }
        return new ReasoningConfig(null, Nodes.integer(thinking, "budget_tokens"));
    }

    private static OutputFormat outputFormat(JsonNode format) {
        if (format == null
                || !format.isObject()
                || !"json_schema".equals(format.path("type").asText())) {
            return null;
        }
        return new OutputFormat(null, format.get("schema"), null);
    }

    private static ToolChoice toolChoice(JsonNode choice) {
        if (choice == null || !choice.isObject()) {
            return null;
        }
        Boolean disableParallel = Nodes.bool(choice, "disable_parallel_tool_use");
        Boolean parallel = disableParallel == null ? null : !disableParallel;
        return switch (choice.path("type").asText("auto")) {
            case "any" -> new ToolChoice(ToolChoice.Mode.REQUIRED, null, parallel);
            case "tool" -> new ToolChoice(ToolChoice.Mode.TOOL, Nodes.text(choice, "name"), parallel);
            case "none" -> new ToolChoice(ToolChoice.Mode.NONE, null, parallel);
            default -> new ToolChoice(ToolChoice.Mode.AUTO, null, parallel);
        };
    }

    private static List<Part> blocks(JsonNode content) {
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
        for (JsonNode block : content) {
            String type = block.path("type").asText("");
            switch (type) {
                case "text" -> parts.add(new Part.Text(block.path("text").asText()));
                case "image" -> parts.add(image(block.path("source")));
                case "tool_use" ->
                    parts.add(new Part.ToolCall(
                            Nodes.text(block, "id"),
                            Nodes.text(block, "name"),
                            Nodes.write(block.has("input") ? block.get("input") : object()),
                            null));
                case "tool_result" -> {
                    JsonNode result = block.get("content");
                    List<Part> resultParts = result == null || result.isNull() ? List.of() : blocks(result);
                    parts.add(new Part.ToolResult(
                            Nodes.text(block, "tool_use_id"),
                            null,
                            resultParts,
                            Boolean.TRUE.equals(Nodes.bool(block, "is_error"))));
                }
                case "thinking" ->
                    parts.add(new Part.Reasoning(Nodes.text(block, "thinking"), Nodes.text(block, "signature"), null));
                case "redacted_thinking" -> parts.add(new Part.Reasoning(null, null, Nodes.text(block, "data")));
                default -> throw new UnsupportedConversionException("content block type " + type);
            }
        }
        return parts;
    }

    private static Part.Image image(JsonNode source) {
        String type = source.path("type").asText();
        return switch (type) {
            case "base64" -> Part.Image.inline(Nodes.text(source, "media_type"), Nodes.text(source, "data"));
            case "url" -> Part.Image.ofUrl(Nodes.text(source, "url"));
            default -> throw new UnsupportedConversionException("image source type " + type);
        };
    }

    @Override
    public ObjectNode encodeRequest(ChatRequest request, String model) {
        ObjectNode body = object();
        body.put("model", model);
        String system = request.systemText();
        OutputFormat format = request.outputFormat();
        if (format != null) {
            // Messages has no JSON mode: the instruction carries it (and the schema).
            String instruction = format.hasSchema()
                    ? "Respond with a single JSON value that matches this JSON Schema, and nothing else: "
                            + Nodes.write(format.schema())
                    : "Respond with a single JSON object, and nothing else.";
            system = system.isEmpty() ? instruction : system + "\n\n" + instruction;
        }
        if (!system.isEmpty()) {
            body.put("system", system);
        }
        ArrayNode messages = body.putArray("messages");
        ObjectNode previous = null;
        for (Message message : request.messages()) {
            ArrayNode content =
                    message.role() == Role.USER ? userBlocks(message.parts()) : assistantBlocks(message.parts());
            if (content.isEmpty()) {
                continue;
            }
            String role = message.role() == Role.USER ? "user" : "assistant";
            if (previous != null && previous.path("role").asText().equals(role)) {
                ((ArrayNode) previous.get("content")).addAll(content);
                continue;
            }
            previous = messages.addObject().put("role", role);
            previous.set("content", content);
        }
        int maxTokens = request.maxTokens() != null ? request.maxTokens() : DEFAULT_MAX_TOKENS;
        body.put("max_tokens", maxTokens);
        ReasoningConfig reasoning = request.reasoning();
        boolean thinking = false;
        if (reasoning != null && !reasoning.disabled() && maxTokens > MIN_THINKING_BUDGET) {
            int budget = Math.min(Math.max(reasoning.budget(), MIN_THINKING_BUDGET), maxTokens - 1);
            body.putObject("thinking").put("type", "enabled").put("budget_tokens", budget);
            thinking = true;
        }
        if (!thinking) {
            // Anthropic refuses temperature/top_p changes while thinking.
            put(body, "temperature", request.temperature());
            put(body, "top_p", request.topP());
        }
        if (!request.stop().isEmpty()) {
            ArrayNode stop = body.putArray("stop_sequences");
            request.stop().forEach(stop::add);
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode entry = tools.addObject().put("name", tool.name());
                put(entry, "description", tool.description());
                entry.set(
                        "input_schema", tool.parameters() != null ? tool.parameters() : OpenAiChatCodec.emptySchema());
            }
        }
        ToolChoice choice = request.toolChoice();
        if (choice != null && !request.tools().isEmpty()) {
            ObjectNode node = body.putObject("tool_choice");
            switch (choice.mode()) {
                case NONE -> node.put("type", "none");
                case REQUIRED -> node.put("type", thinking ? "auto" : "any");
                case TOOL -> {
                    if (thinking) {
                        node.put("type", "auto");
                    } else {
                        node.put("type", "tool").put("name", choice.name());
                    }
                }
                case AUTO -> node.put("type", "auto");
            }
            if (Boolean.FALSE.equals(choice.parallel()) && choice.mode() != ToolChoice.Mode.NONE) {
                node.put("disable_parallel_tool_use", true);
            }
        }
        if (request.user() != null) {
            body.putObject("metadata").put("user_id", request.user());
        }
        if (request.stream()) {
            body.put("stream", true);
        }
        return body;
    }

    private static ArrayNode userBlocks(List<Part> parts) {
        ArrayNode blocks = Nodes.array();
        // Tool results must open the user turn that answers the calls.
        for (Part part : parts) {
            if (part instanceof Part.ToolResult result) {
                ObjectNode block = blocks.addObject().put("type", "tool_result").put("tool_use_id", result.callId());
                ArrayNode content = block.putArray("content");
                for (Part inner : result.content()) {
                    addContent(content, inner);
                }
                if (content.isEmpty()) {
                    block.remove("content");
                }
                if (result.error()) {
                    block.put("is_error", true);
                }
            }
        }
        for (Part part : parts) {
            if (!(part instanceof Part.ToolResult)) {
                addContent(blocks, part);
            }
        }
        return blocks;
    }

    private static void addContent(ArrayNode blocks, Part part) {
        if (part instanceof Part.Text text) {
            if (!text.text().isEmpty()) {
                blocks.addObject().put("type", "text").put("text", text.text());
            }
        } else if (part instanceof Part.Image image) {
            ObjectNode source = blocks.addObject().put("type", "image").putObject("source");
            if (image.url() != null) {
                source.put("type", "url").put("url", image.url());
            } else {
                source.put("type", "base64")
                        .put("media_type", image.mediaType())
                        .put("data", image.data());
            }
        }
    }

    private static ArrayNode assistantBlocks(List<Part> parts) {
        ArrayNode blocks = Nodes.array();
        for (Part part : parts) {
            if (part instanceof Part.Reasoning reasoning) {
                // Only Anthropic's own signed blocks can be sent back.
                if (reasoning.redacted() != null) {
                    blocks.addObject().put("type", "redacted_thinking").put("data", reasoning.redacted());
                } else if (reasoning.signature() != null
                        && !reasoning.signature().isEmpty()) {
                    blocks.addObject()
                            .put("type", "thinking")
                            .put("thinking", reasoning.text())
                            .put("signature", reasoning.signature());
                }
            } else if (part instanceof Part.Text text) {
                if (!text.text().isEmpty()) {
                    blocks.addObject().put("type", "text").put("text", text.text());
                }
            } else if (part instanceof Part.ToolCall call) {
                ObjectNode block = blocks.addObject()
                        .put("type", "tool_use")
                        .put("id", call.id())
                        .put("name", call.name());
                block.set("input", Nodes.arguments(call.arguments()));
            }
        }
        return blocks;
    }

    // ---- responses ----

    @Override
    public ChatResponse decodeResponse(JsonNode body) {
        JsonNode content = body.get("content");
        if (content == null || !content.isArray()) {
            throw new BridgeException("message without content");
        }
        List<Part> parts = new ArrayList<>();
        for (JsonNode block : content) {
            String type = block.path("type").asText();
            switch (type) {
                case "text" -> parts.add(new Part.Text(block.path("text").asText()));
                case "thinking" ->
                    parts.add(new Part.Reasoning(Nodes.text(block, "thinking"), Nodes.text(block, "signature"), null));
                case "redacted_thinking" -> parts.add(new Part.Reasoning(null, null, Nodes.text(block, "data")));
                case "tool_use" ->
                    parts.add(new Part.ToolCall(
                            Nodes.text(block, "id"),
                            Nodes.text(block, "name"),
                            Nodes.write(block.has("input") ? block.get("input") : object()),
                            null));
                default -> {} // server tool blocks: never requested by a bridged request
            }
        }
        return new ChatResponse(
                Nodes.text(body, "id"),
                Nodes.text(body, "model"),
                parts,
                stopReason(Nodes.text(body, "stop_reason")),
                Usage.fromUsageObject(body.get("usage")));
    }

    static FinishReason stopReason(String reason) {
        if (reason == null) {
            return FinishReason.STOP;
        }
        return switch (reason) {
            case "end_turn" -> FinishReason.STOP;
            case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "stop_sequence" -> FinishReason.STOP_SEQUENCE;
            case "tool_use" -> FinishReason.TOOL_CALLS;
            case "pause_turn" -> FinishReason.PAUSE;
            case "refusal" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    static String stopReason(FinishReason reason) {
        return switch (reason) {
            case LENGTH -> "max_tokens";
            case STOP_SEQUENCE -> "stop_sequence";
            case TOOL_CALLS -> "tool_use";
            case PAUSE -> "pause_turn";
            case CONTENT_FILTER -> "refusal";
            default -> "end_turn";
        };
    }

    static ObjectNode usage(Usage usage) {
        ObjectNode node = object();
        node.put("input_tokens", usage.uncachedInput());
        node.put("output_tokens", usage.output());
        node.put("cache_creation_input_tokens", Usage.orZero(usage.cacheWriteTokens()));
        node.put("cache_read_input_tokens", Usage.orZero(usage.cacheReadTokens()));
        return node;
    }

    @Override
    public ObjectNode encodeResponse(ChatResponse response, Instant now) {
        ObjectNode body = object();
        body.put("id", response.id() != null ? response.id() : "msg_" + now.toEpochMilli());
        body.put("type", "message");
        body.put("role", "assistant");
        body.put("model", response.model());
        ArrayNode content = body.putArray("content");
        for (Part part : response.content()) {
            if (part instanceof Part.Reasoning reasoning) {
                if (reasoning.redacted() != null) {
                    content.addObject().put("type", "redacted_thinking").put("data", reasoning.redacted());
                } else {
                    content.addObject()
                            .put("type", "thinking")
                            .put("thinking", reasoning.text() == null ? "" : reasoning.text())
                            .put("signature", reasoning.signature() == null ? "" : reasoning.signature());
                }
            } else if (part instanceof Part.Text text) {
                content.addObject().put("type", "text").put("text", text.text());
            } else if (part instanceof Part.ToolCall call) {
                ObjectNode block = content.addObject()
                        .put("type", "tool_use")
                        .put("id", call.id())
                        .put("name", call.name());
                block.set("input", Nodes.arguments(call.arguments()));
            }
        }
        body.put("stop_reason", stopReason(response.finishReason()));
        body.putNull("stop_sequence");
        body.set("usage", usage(response.usage()));
        return body;
    }

    // ---- errors ----

    @Override
    public BridgeError decodeError(int status, String body) {
        return BridgeError.of(status, Nodes.errorMessage(Nodes.parse(body), body));
    }

    @Override
    public ErrorReply encodeError(BridgeError error) {
        return new ErrorReply(error.status(), errorBody(error));
    }

    /**
     * Anthropic's envelope, {@code {"type":"error","error":{"type","message"}}}, the gateway's code
     * in {@code error.code} of a refusal. The status is kept: the Anthropic SDKs know 529.
     */
    static ObjectNode errorBody(BridgeError error) {
        ObjectNode body = object().put("type", "error");
        ObjectNode inner = body.putObject("error");
        inner.put("type", errorType(error.status()));
        inner.put("message", error.message());
        if (error.gatewayCode() != null) {
            inner.put("code", error.gatewayCode());
        }
        return body;
    }

    /**
     * Anthropic's documented error type for a status (the API's errors page): 400 {@code
     * invalid_request_error}, which it also uses "for other 4XX status codes not listed" (so 408,
     * a request that did not arrive in time, is one), 401 {@code authentication_error}, 402 {@code
     * billing_error}, 403 {@code permission_error}, 404 {@code not_found_error}, 413 {@code
     * request_too_large}, 429 {@code rate_limit_error}, 500 {@code api_error}, 504 {@code
     * timeout_error}, 529 {@code overloaded_error}. 503 is not listed: it is what other vendors and
     * proxies answer when overloaded, so it is Anthropic's {@code overloaded_error}; any other 5xx
     * is {@code api_error}. The SDKs pick the exception by the status; the type is what logs and
     * callers that switch on it read.
     */
    static String errorType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 402 -> "billing_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 503, 529 -> "overloaded_error";
            case 504 -> "timeout_error";
            default -> status >= 400 && status < 500 ? "invalid_request_error" : "api_error";
        };
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

    /** Messages stream events ({@code message_start} … {@code message_stop}) to canonical events. */
    static final class Decoder implements StreamDecoder {
        private int toolCalls;
        private int currentTool = -1;
        private FinishReason reason = FinishReason.STOP;
        private Usage usage = Usage.NONE;
        private boolean finished;

        @Override
        public List<StreamEvent> decode(SseEvent event) {
            if (finished) {
                return List.of();
            }
            JsonNode data = Nodes.parseStrict(event.data(), "message stream event");
            String type = data.path("type").asText(event.event() == null ? "" : event.event());
            switch (type) {
                case "message_start" -> {
                    JsonNode message = data.path("message");
                    usage = Usage.fromUsageObject(message.get("usage"));
                    return List.of(
                            new StreamEvent.Started(Nodes.text(message, "id"), Nodes.text(message, "model"), usage));
                }
                case "content_block_start" -> {
                    JsonNode block = data.path("content_block");
                    String blockType = block.path("type").asText();
                    if (blockType.equals("tool_use")) {
                        currentTool = toolCalls++;
                        return List.of(new StreamEvent.ToolCallStarted(
                                currentTool, Nodes.text(block, "id"), Nodes.text(block, "name"), null));
                    }
                    if (blockType.equals("text") && !block.path("text").asText().isEmpty()) {
                        return List.of(
                                new StreamEvent.TextDelta(block.path("text").asText()));
                    }
                    return List.of();
                }
                case "content_block_delta" -> {
                    JsonNode delta = data.path("delta");
                    return switch (delta.path("type").asText()) {
                        case "text_delta" ->
                            List.of(new StreamEvent.TextDelta(delta.path("text").asText()));
                        case "thinking_delta" ->
                            List.of(new StreamEvent.ReasoningDelta(
                                    delta.path("thinking").asText()));
                        case "signature_delta" ->
                            List.of(new StreamEvent.ReasoningSignature(
                                    delta.path("signature").asText()));
                        case "input_json_delta" -> {
                            String fragment = delta.path("partial_json").asText();
                            yield fragment.isEmpty() || currentTool < 0
                                    ? List.of()
                                    : List.of(new StreamEvent.ToolCallArguments(currentTool, fragment));
                        }
                        default -> List.of();
                    };
                }
                case "message_delta" -> {
                    String stop = Nodes.text(data.path("delta"), "stop_reason");
                    if (stop != null) {
                        reason = stopReason(stop);
                    }
                    // message_delta's counts are cumulative; one it leaves out keeps message_start's
                    usage = usage.merge(Usage.fromUsageObject(data.get("usage")));
                    return List.of();
                }
                case "message_stop" -> {
                    finished = true;
                    return List.of(new StreamEvent.Finished(reason, usage));
                }
                case "error" -> {
                    finished = true;
                    JsonNode error = data.path("error");
                    String errorType = error.path("type").asText();
                    int status = errorType.equals("overloaded_error")
                            ? 529
                            : errorType.equals("rate_limit_error") ? 429 : 500;
                    return List.of(new StreamEvent.Failed(
                            BridgeError.of(status, error.path("message").asText("stream error"))));
                }
                default -> {
                    return List.of();
                }
            }
        }
    }

    /** Canonical events to Messages stream events, opening and closing content blocks. */
    static final class Encoder implements StreamEncoder {
        private enum Block {
            NONE,
            TEXT,
            THINKING,
            TOOL
        }

        private final String fallbackId;
        private boolean started;
        private Block open = Block.NONE;
        private int blockIndex = -1;

        Encoder(Instant now) {
            this.fallbackId = "msg_" + now.toEpochMilli();
        }

        @Override
        public List<SseEvent> encode(StreamEvent event) {
            List<SseEvent> out = new ArrayList<>(3);
            if (event instanceof StreamEvent.Started s) {
                start(out, s.id(), s.model(), s.usage());
                return out;
            }
            if (!started) {
                start(out, null, null, Usage.NONE);
            }
            if (event instanceof StreamEvent.TextDelta t) {
                ensure(out, Block.TEXT, null);
                out.add(delta(object().put("type", "text_delta").put("text", t.text())));
            } else if (event instanceof StreamEvent.ReasoningDelta r) {
                ensure(out, Block.THINKING, null);
                out.add(delta(object().put("type", "thinking_delta").put("thinking", r.text())));
            } else if (event instanceof StreamEvent.ReasoningSignature s) {
                if (open == Block.THINKING) {
                    out.add(delta(object().put("type", "signature_delta").put("signature", s.signature())));
                }
            } else if (event instanceof StreamEvent.ToolCallStarted call) {
                ObjectNode block =
                        object().put("type", "tool_use").put("id", call.id()).put("name", call.name());
                block.putObject("input");
                close(out);
                open(out, Block.TOOL, block);
            } else if (event instanceof StreamEvent.ToolCallArguments args) {
                out.add(delta(object().put("type", "input_json_delta").put("partial_json", args.fragment())));
            } else if (event instanceof StreamEvent.Finished f) {
                close(out);
                ObjectNode data = object().put("type", "message_delta");
                data.putObject("delta")
                        .put("stop_reason", stopReason(f.reason()))
                        .putNull("stop_sequence");
                data.set("usage", usage(f.usage()));
                out.add(new SseEvent("message_delta", Nodes.write(data)));
                out.add(new SseEvent("message_stop", "{\"type\":\"message_stop\"}"));
            } else if (event instanceof StreamEvent.Failed failed) {
                out.add(new SseEvent("error", Nodes.write(errorBody(failed.error()))));
            }
            return out;
        }

        private void start(List<SseEvent> out, String id, String model, Usage usage) {
            started = true;
            ObjectNode data = object().put("type", "message_start");
            ObjectNode message = data.putObject("message");
            message.put("id", id != null ? id : fallbackId);
            message.put("type", "message");
            message.put("role", "assistant");
            message.put("model", model);
            message.putArray("content");
            message.putNull("stop_reason");
            message.putNull("stop_sequence");
            message.set("usage", usage(usage == null ? Usage.NONE : usage));
            out.add(new SseEvent("message_start", Nodes.write(data)));
        }

        private void ensure(List<SseEvent> out, Block kind, ObjectNode block) {
            if (open == kind) {
                return;
            }
            close(out);
            ObjectNode contentBlock = block;
            if (contentBlock == null) {
                contentBlock = kind == Block.TEXT
                        ? object().put("type", "text").put("text", "")
                        : object().put("type", "thinking").put("thinking", "").put("signature", "");
            }
            open(out, kind, contentBlock);
        }

        private void open(List<SseEvent> out, Block kind, ObjectNode block) {
            open = kind;
            blockIndex++;
            ObjectNode data = object().put("type", "content_block_start").put("index", blockIndex);
            data.set("content_block", block);
            out.add(new SseEvent("content_block_start", Nodes.write(data)));
        }

        private void close(List<SseEvent> out) {
            if (open != Block.NONE) {
                out.add(new SseEvent(
                        "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + blockIndex + "}"));
                open = Block.NONE;
            }
        }

        private SseEvent delta(ObjectNode delta) {
            ObjectNode data = object().put("type", "content_block_delta").put("index", blockIndex);
            data.set("delta", delta);
            return new SseEvent("content_block_delta", Nodes.write(data));
        }
    }
}
