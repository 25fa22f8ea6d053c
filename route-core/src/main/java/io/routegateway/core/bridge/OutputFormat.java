package io.routegateway.core.bridge;

import com.fasterxml.jackson.databind.JsonNode;

/** JSON mode ({@code schema == null}) or structured output against a JSON Schema. */
public record OutputFormat(String name, JsonNode schema, Boolean strict) {

    public static final OutputFormat JSON_OBJECT = new OutputFormat(null, null, null);

    public boolean hasSchema() {
        return schema != null;
    }
}
