package io.routegateway.core.bridge;

/**
 * Whether and which tool the model must call. {@code name} is set only for {@link Mode#TOOL}.
 * {@code parallel} is false when the client forbade parallel calls, null when it did not say.
 */
public record ToolChoice(Mode mode, String name, Boolean parallel) {

    public enum Mode {
        AUTO,
        NONE,
        /** Some tool must be called (OpenAI {@code required}, Anthropic {@code any}, Gemini {@code ANY}). */
        REQUIRED,
        TOOL
    }
}
