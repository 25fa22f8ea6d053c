package io.routegateway.core.bridge;

/**
 * Who speaks a message. Tool results travel in {@link #USER} messages (Anthropic's and Gemini's
 * form); the OpenAI codecs split them into {@code tool} messages.
 */
public enum Role {
    USER,
    ASSISTANT
}
