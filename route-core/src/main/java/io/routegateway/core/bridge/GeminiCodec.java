package io.routegateway.core.bridge;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.select.ReasonCode;

import static io.routegateway.core.bridge.Nodes.object;
import static io.routegateway.core.bridge.Nodes.put;

/**
 * Gemini {@code generateContent} / {@code streamGenerateContent?alt=sse}. The model is in the path,
 * not the body. Field names are read in both JSON spellings the API accepts (camelCase and
 * snake_case) and written in camelCase. Schemas travel as {@code parametersJsonSchema} / {@code
 * responseJsonSchema}, which take JSON Schema as the other protocols write it.
 */
public final class GeminiCodec implements ProtocolCodec {

    static final String ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
    static final String ERROR_INFO_DOMAIN = "route-gateway";

    @Override
    public Protocol protocol() {
        return Protocol.GEMINI;
    }

    // ---- requests ----

    @Override
    public ChatRequest decodeRequest(JsonNode body, String pathModel, boolean stream) {
        List<String> system = new ArrayList<>();
        JsonNode instruction = Nodes.field(body, "systemInstruction", "system_instruction");
        if (instruction != null) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : Nodes.list(instruction, "parts")) {
                text.append(part.path("text").asText(""));
            }
            system.add(text.toString());
        }
        // Gemini calls may carry no id: pair each result with the oldest unanswered call of its name.
        Map<String, Deque<String>> pending = new HashMap<>();
        int[] synthesized = {0};
        List<Message> messages = new ArrayList<>();
        for (JsonNode content : Nodes.list(body, "contents")) {
            String role = content.path("role").asText("user");
            Role speaker = role.equals("model") ? Role.ASSISTANT : Role.USER;
            List<Part> parts = new ArrayList<>();
            for (JsonNode part : Nodes.list(content, "parts")) {
                parts.add(requestPart(part, pending, synthesized));
            }
            messages.add(new Message(speaker, parts));
        }
        List<ToolDefinition> tools = new ArrayList<>();
        for (JsonNode tool : Nodes.list(body, "tools")) {
            var names = tool.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                if (!name.equals("functionDeclarations") && !name.equals("function_declarations")) {
                    throw new UnsupportedConversionException("built-in tool " + name);
                }
            }
            for (JsonNode declaration : Nodes.list(tool, "functionDeclarations", "function_declarations")) {
                JsonNode schema = Nodes.field(declaration, "parametersJsonSchema", "parameters_json_schema");
                if (schema == null) {
                    JsonNode openApi = Nodes.field(declaration, "parameters");
                    schema = openApi == null ? null : jsonSchema(openApi);
                }
                tools.add(new ToolDefinition(
                        Nodes.text(declaration, "name"), Nodes.text(declaration, "description"), schema));
            }
        }
        JsonNode config = Nodes.field(body, "generationConfig", "generation_config");
        if (config == null) {
            config = object();
        }
        Integer candidates = Nodes.integer(config, "candidateCount", "candidate_count");
        if (candidates != null && candidates > 1) {
            throw new UnsupportedConversionException("candidateCount > 1 (several choices)");
        }
        for (String modality : Nodes.strings(config, "responseModalities", "response_modalities")) {
            if (!modality.equalsIgnoreCase("text")) {
                throw new UnsupportedConversionException("response modality " + modality);
            }
        }
        return new ChatRequest(
                pathModel,
                system,
                messages,
                tools,
                toolChoice(Nodes.field(body, "toolConfig", "tool_config")),
                outputFormat(config),
                Nodes.strings(config, "stopSequences", "stop_sequences"),
                Nodes.integer(config, "maxOutputTokens", "max_output_tokens"),
                Nodes.decimal(config, "temperature"),
                Nodes.decimal(config, "topP", "top_p"),
                thinking(Nodes.field(config, "thinkingConfig", "thinking_config")),
                stream,
                true,
                null);
    }

    private static Part requestPart(JsonNode part, Map<String, Deque<String>> pending, int[] synthesized) {
        String signature = Nodes.text(part, "thoughtSignature", "thought_signature");
        JsonNode call = Nodes.field(part, "functionCall", "function_call");
        if (call != null) {
            String name = Nodes.text(call, "name");
            String id = Nodes.text(call, "id");
            if (id == null) {
                id = "call_" + name + "_" + synthesized[0]++;
            }
            pending.computeIfAbsent(name, n -> new ArrayDeque<>()).add(id);
            return new Part.ToolCall(id, name, Nodes.write(args(call)), signature);
        }
        JsonNode response = Nodes.field(part, "functionResponse", "function_response");
        if (response != null) {
            String name = Nodes.text(response, "name");
            String id = Nodes.text(response, "id");
            Deque<String> calls = pending.get(name);
            String matched = calls == null ? null : calls.poll();
            if (id == null) {
                id = matched != null ? matched : "call_" + name;
            }
            JsonNode value = response.get("response");
            return new Part.ToolResult(
                    id,
                    name,
                    List.of(new Part.Text(resultText(value))),
                    value != null && value.has("error") && value.size() == 1);
        }
        JsonNode inline = Nodes.field(part, "inlineData", "inline_data");
        if (inline != null) {
            return Part.Image.inline(Nodes.text(inline, "mimeType", "mime_type"), Nodes.text(inline, "data"));
        }
        JsonNode file = Nodes.field(part, "fileData", "file_data");
        if (file != null) {
            return Part.Image.ofUrl(Nodes.text(file, "fileUri", "file_uri"));
        }
        if (part.has("text")) {
            if (Boolean.TRUE.equals(Nodes.bool(part, "thought"))) {
                return new Part.Reasoning(part.path("text").asText(), signature, null);
            }
            return new Part.Text(part.path("text").asText());
        }
        throw new UnsupportedConversionException(
                "part " + (part.fieldNames().hasNext() ? part.fieldNames().next() : "{}"));
    }

    /** A result of the shape {@code {"content": "…"}} (how this codec writes text) is that text. */
    private static String resultText(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.isObject() && value.size() == 1) {
            JsonNode only = value.has("content")
                    ? value.get("content")
                    : value.has("output") ? value.get("output") : value.get("error");
            if (only != null && only.isTextual()) {
                return only.asText();
            }
        }
        return value.isTextual() ? value.asText() : Nodes.write(value);
    }

    private static ObjectNode args(JsonNode call) {
        JsonNode args = call.get("args");
        return args != null && args.isObject() ? (ObjectNode) args : object();
    }

    /** Gemini's OpenAPI-subset schema to JSON Schema: type names are upper case there. */
    static JsonNode jsonSchema(JsonNode schema) {
        if (schema.isObject()) {
            ObjectNode copy = object();
            schema.fields().forEachRemaining(entry -> {
                JsonNode value = entry.getValue();
                if (entry.getKey().equals("type") && value.isTextual()) {
                    copy.put("type", value.asText().toLowerCase(java.util.Locale.ROOT));
                } else {
                    copy.set(entry.getKey(), jsonSchema(value));
                }
            });
            return copy;
        }
        if (schema.isArray()) {
            ArrayNode copy = Nodes.array();
            schema.forEach(item -> copy.add(jsonSchema(item)));
            return copy;
        }
        return schema;
    }

    private static ToolChoice toolChoice(JsonNode config) {
        JsonNode calling =
                config == null ? null : Nodes.field(config, "functionCallingConfig", "function_calling_config");
        if (calling == null) {
            return null;
        }
        List<String> allowed = Nodes.strings(calling, "allowedFunctionNames", "allowed_function_names");
        return switch (calling.path("mode").asText("AUTO").toUpperCase(java.util.Locale.ROOT)) {
            case "NONE" -> new ToolChoice(ToolChoice.Mode.NONE, null, null);
            case "ANY", "VALIDATED" ->
                allowed.size() == 1
                        ? new ToolChoice(ToolChoice.Mode.TOOL, allowed.get(0), null)
                        : new ToolChoice(ToolChoice.Mode.REQUIRED, null, null);
            default -> new ToolChoice(ToolChoice.Mode.AUTO, null, null);
        };
    }

    private static OutputFormat outputFormat(JsonNode config) {
        String mime = Nodes.text(config, "responseMimeType", "response_mime_type");
        if (!"application/json".equals(mime)) {
            return null;
        }
        JsonNode schema = Nodes.field(config, "responseJsonSchema", "response_json_schema");
        if (schema == null) {
            JsonNode openApi = Nodes.field(config, "responseSchema", "response_schema");
            schema = openApi == null ? null : jsonSchema(openApi);
        }
        return schema == null ? OutputFormat.JSON_OBJECT : new OutputFormat(null, schema, null);
    }

    private static ReasoningConfig thinking(JsonNode config) {
        if (config == null) {
            return null;
        }
        Integer budget = Nodes.integer(config, "thinkingBudget", "thinking_budget");
        String level = Nodes.text(config, "thinkingLevel", "thinking_level");
        if (budget == null && level == null) {
            return null;
        }
        if (budget != null && budget < 0) {
            budget = null; // -1: dynamic
        }
        return new ReasoningConfig(level == null ? null : level.toLowerCase(java.util.Locale.ROOT), budget);
    }

    @Override
    public ObjectNode encodeRequest(ChatRequest request, String model) {
        ObjectNode body = object();
        if (!request.system().isEmpty()) {
            body.putObject("systemInstruction").putArray("parts").addObject().put("text", request.systemText());
        }
        ArrayNode contents = body.putArray("contents");
        for (Message message : request.messages()) {
            ArrayNode parts = Nodes.array();
            for (Part part : message.parts()) {
                addPart(parts, part);
            }
            if (parts.isEmpty()) {
                continue;
            }
            ObjectNode content = contents.addObject().put("role", message.role() == Role.USER ? "user" : "model");
            content.set("parts", parts);
        }
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
            for (ToolDefinition tool : request.tools()) {
                ObjectNode declaration = declarations.addObject().put("name", tool.name());
                put(declaration, "description", tool.description());
                put(declaration, "parametersJsonSchema", tool.parameters());
            }
        }
        ToolChoice choice = request.toolChoice();
        if (choice != null && !request.tools().isEmpty()) {
            ObjectNode calling = body.putObject("toolConfig").putObject("functionCallingConfig");
            switch (choice.mode()) {
                case NONE -> calling.put("mode", "NONE");
                case REQUIRED -> calling.put("mode", "ANY");
                case TOOL ->
                    calling.put("mode", "ANY").putArray("allowedFunctionNames").add(choice.name());
                case AUTO -> calling.put("mode", "AUTO");
            }
        }
        ObjectNode config = object();
        put(config, "temperature", request.temperature());
        put(config, "topP", request.topP());
        put(config, "maxOutputTokens", request.maxTokens());
        if (!request.stop().isEmpty()) {
            ArrayNode stop = config.putArray("stopSequences");
            request.stop().forEach(stop::add);
        }
        OutputFormat format = request.outputFormat();
        if (format != null) {
            config.put("responseMimeType", "application/json");
            put(config, "responseJsonSchema", format.schema());
        }
        ReasoningConfig reasoning = request.reasoning();
        if (reasoning != null) {
            ObjectNode thinking = config.putObject("thinkingConfig");
            if (reasoning.disabled()) {
                thinking.put("thinkingBudget", 0);
            } else {
                thinking.put("thinkingBudget", reasoning.budget()).put("includeThoughts", true);
            }
        }
        if (!config.isEmpty()) {
            body.set("generationConfig", config);
        }
        return body;
    }

    private static void addPart(ArrayNode parts, Part part) {
        if (part instanceof Part.Text text) {
            parts.addObject().put("text", text.text());
        } else if (part instanceof Part.Image image) {
            if (image.url() != null) {
                parts.addObject().putObject("fileData").put("fileUri", image.url());
            } else {
                parts.addObject()
                        .putObject("inlineData")
                        .put("mimeType", image.mediaType())
                        .put("data", image.data());
            }
        } else if (part instanceof Part.ToolCall call) {
            ObjectNode node = parts.addObject();
            ObjectNode functionCall =
                    node.putObject("functionCall").put("id", call.id()).put("name", call.name());
            functionCall.set("args", Nodes.arguments(call.arguments()));
            put(node, "thoughtSignature", call.signature());
        } else if (part instanceof Part.ToolResult result) {
            ObjectNode response = parts.addObject().putObject("functionResponse");
            response.put("id", result.callId()).put("name", result.name() != null ? result.name() : result.callId());
            String text = result.text();
            JsonNode parsed = Nodes.parse(text);
            if (result.error()) {
                response.putObject("response").put("error", text);
            } else if (parsed != null && parsed.isObject()) {
                response.set("response", parsed);
            } else {
                response.putObject("response").put("content", text);
            }
        } else if (part instanceof Part.Reasoning reasoning
                && reasoning.signature() != null
                && reasoning.text() != null) {
            // Only Gemini's own signed thoughts go back (the signature proves them).
            parts.addObject()
                    .put("text", reasoning.text())
                    .put("thought", true)
                    .put("thoughtSignature", reasoning.signature());
        }
    }

    // ---- responses ----

    @Override
    public ChatResponse decodeResponse(JsonNode body) {
        JsonNode candidates = body.get("candidates");
        if ((candidates == null || candidates.isEmpty()) && body.has("promptFeedback")) {
            return new ChatResponse(
                    Nodes.text(body, "responseId"),
                    Nodes.text(body, "modelVersion"),
                    List.of(),
                    FinishReason.CONTENT_FILTER,
                    Usage.fromUsageMetadata(body.get("usageMetadata")));
        }
        if (candidates == null || !candidates.isArray() || candidates.isEmpty()) {
            throw new BridgeException("response without candidates");
        }
        JsonNode candidate = candidates.get(0);
        String stem = Nodes.text(body, "responseId");
        List<Part> parts = new ArrayList<>();
        int calls = 0;
        for (JsonNode part : candidate.path("content").path("parts")) {
            String signature = Nodes.text(part, "thoughtSignature");
            JsonNode call = part.get("functionCall");
            if (call != null) {
                parts.add(new Part.ToolCall(
                        callId(call, stem, calls++), Nodes.text(call, "name"), Nodes.write(args(call)), signature));
            } else if (part.has("text")) {
                if (Boolean.TRUE.equals(Nodes.bool(part, "thought"))) {
                    parts.add(new Part.Reasoning(part.path("text").asText(), signature, null));
                } else {
                    parts.add(new Part.Text(part.path("text").asText()));
                }
            }
        }
        return new ChatResponse(
                stem,
                Nodes.text(body, "modelVersion"),
                parts,
                finishReason(Nodes.text(candidate, "finishReason"), calls > 0),
                Usage.fromUsageMetadata(body.get("usageMetadata")));
    }

    /** Gemini's call id, or one made up from the response id and the call's position. */
    static String callId(JsonNode call, String stem, int index) {
        String id = Nodes.text(call, "id");
        return id != null ? id : "call_" + (stem == null ? "gemini" : stem) + "_" + index;
    }

    static FinishReason finishReason(String reason, boolean calls) {
        if (reason == null || reason.equals("STOP")) {
            return calls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
        }
        return switch (reason) {
            case "MAX_TOKENS" -> FinishReason.LENGTH;
            case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY" ->
                FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    static String finishReason(FinishReason reason) {
        return switch (reason) {
            case LENGTH -> "MAX_TOKENS";
            case CONTENT_FILTER -> "SAFETY";
            case OTHER -> "OTHER";
            default -> "STOP";
        };
    }

    static ObjectNode usage(Usage usage) {
        ObjectNode node = object();
        long reasoning = Usage.orZero(usage.reasoningTokens());
        node.put("promptTokenCount", usage.input());
        node.put("candidatesTokenCount", Math.max(0, usage.output() - reasoning));
        node.put("totalTokenCount", usage.input() + usage.output());
        if (usage.cacheReadTokens() != null) {
            node.put("cachedContentTokenCount", usage.cacheReadTokens());
        }
        if (reasoning > 0) {
            node.put("thoughtsTokenCount", reasoning);
        }
        return node;
    }

    @Override
    public ObjectNode encodeResponse(ChatResponse response, Instant now) {
        ArrayNode parts = Nodes.array();
        for (Part part : response.content()) {
            if (part instanceof Part.Reasoning reasoning) {
                if (reasoning.text() != null) {
                    ObjectNode node =
                            parts.addObject().put("text", reasoning.text()).put("thought", true);
                    put(node, "thoughtSignature", reasoning.signature());
                }
            } else {
                addPart(parts, part);
            }
        }
        return candidateChunk(parts, response.finishReason(), response.usage(), response.model(), response.id());
    }

    static ObjectNode candidateChunk(ArrayNode parts, FinishReason reason, Usage usage, String model, String id) {
        ObjectNode body = object();
        ObjectNode candidate = body.putArray("candidates").addObject();
        candidate.putObject("content").put("role", "model").set("parts", parts);
        if (reason != null) {
            candidate.put("finishReason", finishReason(reason));
        }
        candidate.put("index", 0);
        if (usage != null) {
            body.set("usageMetadata", usage(usage));
        }
        put(body, "modelVersion", model);
        put(body, "responseId", id);
        return body;
    }

    // ---- errors ----

    @Override
    public BridgeError decodeError(int status, String body) {
        return BridgeError.of(status, Nodes.errorMessage(Nodes.parse(body), body));
    }

    @Override
    public ErrorReply encodeError(BridgeError error) {
        return new ErrorReply(clientStatus(error.status()), errorBody(error));
    }

    /**
     * Gemini's envelope, {@code {"error":{"code":<http status>,"message","status"}}}, with a
     * refusal's gateway code in a {@code google.rpc.ErrorInfo} detail ({@code reason}, domain
     * {@code route-gateway}), where Google's own APIs put a machine-readable reason.
     */
    static ObjectNode errorBody(BridgeError error) {
        ObjectNode body = object();
        ObjectNode inner = body.putObject("error");
        inner.put("code", clientStatus(error.status()));
        inner.put("message", error.message());
        inner.put("status", statusName(error.status(), error.gatewayCode()));
        if (error.gatewayCode() != null) {
            inner.putArray("details")
                    .addObject()
                    .put("@type", ERROR_INFO_TYPE)
                    .put("reason", error.gatewayCode())
                    .put("domain", ERROR_INFO_DOMAIN);
        }
        return body;
    }

    /** 529 is Anthropic's alone; Google's clients know it as 503. */
    static int clientStatus(int status) {
        return status == 529 ? 503 : status;
    }

    /**
     * The google.rpc code name for an HTTP status, after google.rpc.Code's HTTP mappings (504 is
     * {@code DEADLINE_EXCEEDED}, 503 {@code UNAVAILABLE}, 429 {@code RESOURCE_EXHAUSTED}…). 408 has
     * no mapping there and is a client-side 4xx: {@code INVALID_ARGUMENT}, as any other. 502 and
     * 529 (a bad or overloaded upstream) are {@code UNAVAILABLE}: worth retrying, as Google means it.
     * The gateway's {@code operation_unsupported} at a 5xx is {@code UNIMPLEMENTED}.
     */
    static String statusName(int status, String gatewayCode) {
        if (ReasonCode.OPERATION_UNSUPPORTED.wire().equals(gatewayCode) && status >= 500) {
            return "UNIMPLEMENTED";
        }
        return switch (status) {
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 502, 503, 529 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> status >= 400 && status < 500 ? "INVALID_ARGUMENT" : "INTERNAL";
        };
    }

    // ---- streams ----

    @Override
    public StreamDecoder streamDecoder() {
        return new Decoder();
    }

    @Override
    public StreamEncoder streamEncoder(ChatRequest request, Instant now) {
        return new Encoder();
    }

    /** {@code streamGenerateContent?alt=sse} chunks (each a whole response) to canonical events. */
    static final class Decoder implements StreamDecoder {
        private boolean started;
        private boolean finished;
        private int toolCalls;
        private Usage usage = Usage.NONE;

        @Override
        public List<StreamEvent> decode(SseEvent event) {
            if (finished) {
                return List.of();
            }
            JsonNode chunk = Nodes.parseStrict(event.data(), "generateContent chunk");
            List<StreamEvent> events = new ArrayList<>(2);
            if (chunk.has("error")) {
                finished = true;
                int status = chunk.path("error").path("code").asInt(500);
                events.add(new StreamEvent.Failed(BridgeError.of(status, Nodes.errorMessage(chunk, event.data()))));
                return events;
            }
            String stem = Nodes.text(chunk, "responseId");
            if (!started) {
                started = true;
                events.add(new StreamEvent.Started(stem, Nodes.text(chunk, "modelVersion"), Usage.NONE));
            }
            usage = usage.merge(Usage.fromUsageMetadata(chunk.get("usageMetadata")));
            JsonNode candidate = chunk.path("candidates").path(0);
            for (JsonNode part : candidate.path("content").path("parts")) {
                JsonNode call = part.get("functionCall");
                String signature = Nodes.text(part, "thoughtSignature");
                if (call != null) {
                    int index = toolCalls++;
                    events.add(new StreamEvent.ToolCallStarted(
                            index, callId(call, stem, index), Nodes.text(call, "name"), signature));
                    events.add(new StreamEvent.ToolCallArguments(index, Nodes.write(args(call))));
                } else if (part.has("text")) {
                    String text = part.path("text").asText();
                    if (Boolean.TRUE.equals(Nodes.bool(part, "thought"))) {
                        if (!text.isEmpty()) {
                            events.add(new StreamEvent.ReasoningDelta(text));
                        }
                        if (signature != null) {
                            events.add(new StreamEvent.ReasoningSignature(signature));
                        }
                    } else if (!text.isEmpty()) {
                        events.add(new StreamEvent.TextDelta(text));
                    }
                }
            }
            String reason = Nodes.text(candidate, "finishReason");
            if (reason == null && chunk.path("promptFeedback").has("blockReason")) {
                reason = "SAFETY";
            }
            if (reason != null) {
                finished = true;
                events.add(new StreamEvent.Finished(finishReason(reason, toolCalls > 0), usage));
            }
            return events;
        }
    }

    /**
     * Canonical events to {@code alt=sse} chunks. Text goes out as it comes; a tool call goes out
     * whole once its arguments are complete (Gemini has no partial calls), at the next event that
     * is not one of its fragments.
     */
    static final class Encoder implements StreamEncoder {
        private String id;
        private String model;
        private StreamEvent.ToolCallStarted call;
        private StringBuilder arguments;

        @Override
        public List<SseEvent> encode(StreamEvent event) {
            List<SseEvent> out = new ArrayList<>(2);
            if (event instanceof StreamEvent.Started s) {
                id = s.id();
                model = s.model();
                return out;
            }
            if (event instanceof StreamEvent.ToolCallArguments args && call != null && args.index() == call.index()) {
                arguments.append(args.fragment());
                return out;
            }
            ArrayNode pendingCall = flushCall();
            if (event instanceof StreamEvent.TextDelta t) {
                pendingCall.addObject().put("text", t.text());
                out.add(chunk(pendingCall, null, null));
            } else if (event instanceof StreamEvent.ReasoningDelta r) {
                pendingCall.addObject().put("text", r.text()).put("thought", true);
                out.add(chunk(pendingCall, null, null));
            } else if (event instanceof StreamEvent.ToolCallStarted started) {
                if (!pendingCall.isEmpty()) {
                    out.add(chunk(pendingCall, null, null));
                }
                call = started;
                arguments = new StringBuilder();
            } else if (event instanceof StreamEvent.Finished f) {
                out.add(chunk(pendingCall, f.reason(), f.usage()));
            } else if (event instanceof StreamEvent.Failed failed) {
                if (!pendingCall.isEmpty()) {
                    out.add(chunk(pendingCall, null, null));
                }
                out.add(SseEvent.data(Nodes.write(errorBody(failed.error()))));
            } else if (!pendingCall.isEmpty()) {
                out.add(chunk(pendingCall, null, null));
            }
            return out;
        }

        private ArrayNode flushCall() {
            ArrayNode parts = Nodes.array();
            if (call != null) {
                ObjectNode part = parts.addObject();
                ObjectNode functionCall =
                        part.putObject("functionCall").put("id", call.id()).put("name", call.name());
                functionCall.set("args", Nodes.arguments(arguments.toString()));
                put(part, "thoughtSignature", call.signature());
                call = null;
                arguments = null;
            }
            return parts;
        }

        private SseEvent chunk(ArrayNode parts, FinishReason reason, Usage usage) {
            return SseEvent.data(Nodes.write(candidateChunk(parts, reason, usage, model, id)));
        }
    }
}
