package io.routegateway.core.bridge;

import java.util.List;

/** A complete (non-streamed) chat response in the canonical form. */
public record ChatResponse(String id, String model, List<Part> content, FinishReason finishReason, Usage usage) {

    public ChatResponse {
        content = List.copyOf(content);
        usage = usage == null ? Usage.NONE : usage;
    }
}
