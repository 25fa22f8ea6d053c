package io.routegateway.state.web;

import java.lang.reflect.RecordComponent;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.routegateway.core.json.Json;

/**
 * A request body read twice: as a typed input record, and as the raw object, so an update can tell
 * a field that was left out (unchanged) from one sent as {@code null} (cleared).
 *
 * <p>Read strictly: a JSON value of another type is never coerced ({@code "name": 5}, {@code
 * "enabled": "true"}, {@code "priority": "5"} or {@code 1.5}, {@code "quota_remaining": ""} are all
 * {@code validation.field_type}), so what is stored is what was meant.
 */
public record JsonBody<T>(T value, ObjectNode raw) {

    private static final ObjectMapper STRICT = strict(Json.MAPPER.copy());

    /**
     * Reads {@code body} as {@code type}. A field the input record does not have (unknown or misspelt:
     * {@code "wieght"}), at the top or inside a nested record, is refused with {@code
     * validation.unknown_field} instead of being ignored, so a typo never looks like a write that
     * worked; the message names the field only when it is a plain name.
     *
     * @throws AdminException {@code validation.malformed_json} when the body is missing or not an
     *     object, {@code validation.unknown_field} for a field the record does not have, {@code
     *     validation.field_type} for a field of the wrong type
     */
    public static <T extends Record> JsonBody<T> read(JsonNode body, Class<T> type) {
        if (body == null || !body.isObject()) {
            throw AdminException.invalid(AdminCodes.MALFORMED_JSON, "the body must be a JSON object");
        }
        refuseUnknownFields(body, type);
        try {
            return new JsonBody<>(STRICT.treeToValue(body, type), (ObjectNode) body);
        } catch (JsonProcessingException e) {
            throw AdminException.fromJson(e);
        }
    }

    /**
     * Refuses a top-level field of {@code body} that {@code type} does not have, with {@code
     * validation.unknown_field}: for bodies that are read by hand (the OAuth material, whose form
     * depends on which fields are present) as well as bound ones. Anything but an object passes.
     */
    public static void refuseUnknownFields(JsonNode body, Class<? extends Record> type) {
        if (body == null || !body.isObject()) {
            return;
        }
        Set<String> known = fieldsOf(type);
        Iterator<String> names = body.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!known.contains(name)) {
                throw unknownField(name, known);
            }
        }
    }

    /** {@code validation.unknown_field}, naming the field only when it is a plain name (never echoing markup or NUL). */
    static AdminException unknownField(String name, Set<String> known) {
        return AdminException.invalid(
                AdminCodes.UNKNOWN_FIELD,
                (PLAIN_NAME.matcher(name).matches() ? "unknown field " + name : "an unknown field")
                        + (known == null
                                ? ""
                                : "; the fields are " + known.stream().sorted().toList()));
    }

    /** Whether {@code name} may be echoed in a message. */
    static boolean isPlainName(String name) {
        return name != null && PLAIN_NAME.matcher(name).matches();
    }

    private static final Pattern PLAIN_NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    private static Set<String> fieldsOf(Class<? extends Record> type) {
        PropertyNamingStrategies.SnakeCaseStrategy snake = new PropertyNamingStrategies.SnakeCaseStrategy();
        return Stream.of(type.getRecordComponents())
                .map(RecordComponent::getName)
                .map(snake::translate)
                .collect(Collectors.toUnmodifiableSet());
    }

    private static ObjectMapper strict(ObjectMapper mapper) {
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        // a nested record's unknown field too (a model mapping's "tto"); the top level is checked first
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        for (LogicalType type : new LogicalType[] {
            LogicalType.Textual, LogicalType.Boolean, LogicalType.Integer, LogicalType.Float, LogicalType.DateTime
        }) {
            mapper.coercionConfigFor(type)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        // text stays text, and an ISO-8601 instant is read from its text
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.String, CoercionAction.TryConvert)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.TryConvert);
        mapper.coercionConfigFor(LogicalType.DateTime)
                .setCoercion(CoercionInputShape.String, CoercionAction.TryConvert);
        return mapper;
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
