package io.routegateway.core.bridge;

/** Why generation stopped, in the canonical form. */
public enum FinishReason {
    STOP,
    STOP_SEQUENCE,
    LENGTH,
    TOOL_CALLS,
    CONTENT_FILTER,
    /** Anthropic's {@code pause_turn}: a long turn paused, to be continued. */
    PAUSE,
    OTHER
}
