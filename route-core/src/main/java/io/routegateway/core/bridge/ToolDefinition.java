package io.routegateway.core.bridge;

import com.fasterxml.jackson.databind.JsonNode;

/** A function the model may call; {@code parameters} is a JSON Schema object (may be null). */
public record ToolDefinition(String name, String description, JsonNode parameters) {}
