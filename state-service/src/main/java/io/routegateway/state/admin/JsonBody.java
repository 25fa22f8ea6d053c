package io.routegateway.state.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;

/**
 * A request body read twice: as a typed input record, and as the raw object, so an update can tell
 * a field that was left out (unchanged) from one sent as {@code null} (cleared).
 */
public record JsonBody<T>(T value, ObjectNode raw) {

    /**
     * @throws AdminException {@code validation.malformed_json} when the body is missing or not an
     *     object, {@code validation.field_type} for a field of the wrong type
     */
    public static <T> JsonBody<T> read(JsonNode body, Class<T> type) {
        if (body == null || !body.isObject()) {
            throw AdminException.invalid(AdminCodes.MALFORMED_JSON, "the body must be a JSON object");
        }
        try {
            return new JsonBody<>(Json.MAPPER.treeToValue(body, type), (ObjectNode) body);
        } catch (JsonProcessingException e) {
            throw AdminException.fromJson(e);
        }
    }

    /** Whether the body names the field at all, {@code null} included. */
    public boolean has(String field) {
        return raw.has(field);
    }

    /** The field's raw value; null when absent. */
    public JsonNode node(String field) {
        return raw.get(field);
    }
}
