package io.routegateway.core.bridge;

import java.util.List;

/** One turn of the conversation. */
public record Message(Role role, List<Part> parts) {

    public Message {
        parts = List.copyOf(parts);
    }
}
