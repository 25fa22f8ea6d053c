package io.routegateway.core.bridge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A chat request in the canonical form: what every client protocol decodes to and every upstream
 * protocol encodes from. Fields a request did not set are null (lists empty).
 *
 * @param system system and developer instructions, in order
 * @param includeUsage whether the client asked for usage in its stream (OpenAI Chat's {@code
 *     stream_options.include_usage}); the other protocols always report it
 */
public record ChatRequest(
        String model,
        List<String> system,
        List<Message> messages,
        List<ToolDefinition> tools,
        ToolChoice toolChoice,
        OutputFormat outputFormat,
        List<String> stop,
        Integer maxTokens,
        Double temperature,
        Double topP,
        ReasoningConfig reasoning,
        boolean stream,
        boolean includeUsage,
        String user) {

    public ChatRequest {
        system = List.copyOf(system);
        messages = withToolNames(messages);
        tools = List.copyOf(tools);
        stop = List.copyOf(stop);
    }

    /**
     * Fills the tool name of every result from the call it answers: Gemini needs the name, the
     * other protocols only carry the call id.
     */
    private static List<Message> withToolNames(List<Message> messages) {
        Map<String, String> names = new HashMap<>();
        List<Message> named = new ArrayList<>(messages.size());
        for (Message message : messages) {
            List<Part> parts = null;
            for (int i = 0; i < message.parts().size(); i++) {
                Part part = message.parts().get(i);
                if (part instanceof Part.ToolCall call && call.id() != null) {
                    names.put(call.id(), call.name());
                } else if (part instanceof Part.ToolResult result && result.name() == null) {
                    String name = names.get(result.callId());
                    if (name != null) {
                        if (parts == null) {
                            parts = new ArrayList<>(message.parts());
                        }
                        parts.set(i, new Part.ToolResult(result.callId(), name, result.content(), result.error()));
                    }
                }
            }
            named.add(parts == null ? message : new Message(message.role(), parts));
        }
        return List.copyOf(named);
    }

    /** All instructions as one text, for protocols with a single system field. */
    public String systemText() {
        return String.join("\n\n", system);
    }
}
