package io.routegateway.core.bridge;

import com.fasterxml.jackson.databind.JsonNode;

/** One piece of a message's content in the canonical form every protocol converts to and from. */
public sealed interface Part {

    record Text(String text) implements Part {}

    /**
     * An image, either by reference ({@code url}) or inline ({@code mediaType} + base64 {@code
     * data}); exactly one of the two is set.
     */
    record Image(String url, String mediaType, String data) implements Part {

        public static Image ofUrl(String url) {
            return new Image(url, null, null);
        }

        public static Image inline(String mediaType, String data) {
            return new Image(null, mediaType, data);
        }

        /** The image as a URL: the reference itself or a {@code data:} URL of the inline bytes. */
        public String asUrl() {
            return url != null ? url : "data:" + mediaType + ";base64," + data;
        }
    }

    /**
     * A tool call made by the assistant. {@code arguments} is the JSON text of the arguments object
     * (the OpenAI form; the other protocols carry an object). {@code signature} is the opaque
     * reasoning signature some upstreams attach to a call (Gemini's {@code thoughtSignature}).
     */
    record ToolCall(String id, String name, String arguments, String signature) implements Part {}

    /**
     * The result of a tool call, sent back by the client. {@code content} is text or a list of text
     * and image parts; {@code name} is the called tool's name (Gemini needs it, the others do not
     * carry it and {@link ChatRequest} fills it from the matching call).
     */
    record ToolResult(String callId, String name, java.util.List<Part> content, boolean error) implements Part {

        /** The result's text parts joined, for protocols whose results are a single string. */
        public String text() {
            StringBuilder joined = new StringBuilder();
            for (Part part : content) {
                if (part instanceof Text text) {
                    joined.append(text.text());
                }
            }
            return joined.toString();
        }
    }

    /**
     * The model's reasoning. {@code signature} is the upstream's opaque proof of it (Anthropic's
     * {@code signature}, Gemini's {@code thoughtSignature}); only the protocol that issued it can
     * take the block back, so others drop it from requests. {@code redacted} holds Anthropic's
     * encrypted {@code redacted_thinking} data.
     */
    record Reasoning(String text, String signature, String redacted) implements Part {}

    /** A JSON value a protocol carries that has no canonical counterpart; never sent elsewhere. */
    record Opaque(String protocol, JsonNode value) implements Part {}
}
