package io.routegateway.core.model;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** Reading {@code config_json.model_mappings} ({@code [{"from": "...", "to": "..."}]}) back from storage. */
public final class ModelMappings {

    public static final String KEY = "model_mappings";

    private ModelMappings() {}

    /**
     * Forgiving read of a stored config: a missing or non-array {@code model_mappings} is no
     * mappings, and an entry that is not an object with a non-blank textual {@code from} is skipped,
     * so one hand-edited entry cannot hide the others. Order is kept (the first non-fallback mapping
     * is the default test model).
     */
    public static List<ModelMapping> fromConfigJson(JsonNode configJson) {
        if (configJson == null || !configJson.isObject()) {
            return List.of();
        }
        JsonNode array = configJson.get(KEY);
        if (array == null || !array.isArray()) {
            return List.of();
        }
        List<ModelMapping> mappings = new ArrayList<>();
        for (JsonNode entry : array) {
            if (!entry.isObject()) {
                continue;
            }
            JsonNode from = entry.get("from");
            JsonNode to = entry.get("to");
            if (from == null || !from.isTextual() || from.asText().isBlank()) {
                continue;
            }
            if (to != null && !to.isNull() && !to.isTextual()) {
                continue;
            }
            mappings.add(new ModelMapping(from.asText(), to == null || to.isNull() ? null : to.asText()));
        }
        return List.copyOf(mappings);
    }
}
