package io.routegateway.core.model;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * One entry of {@code config_json.model_mappings}: requests for {@code from} go upstream as {@code
 * to}. {@code from = "*"} is the catch-all (fallback) mapping; {@code to = "*"} or blank passes the
 * requested name through unchanged.
 */
public record ModelMapping(String from, String to) {

    public static final String WILDCARD = "*";

    public ModelMapping {
        if (from == null || from.isBlank()) {
            throw new IllegalArgumentException("model mapping 'from' is required");
        }
        from = from.strip();
        to = to == null ? "" : to.strip();
    }

    /** Derived, not a wire property (also for the OpenAPI document, which would list it otherwise). */
    @JsonIgnore
    public boolean isCatchAll() {
        return WILDCARD.equals(from);
    }

    public boolean passesThrough() {
        return to.isEmpty() || WILDCARD.equals(to);
    }
}
