package io.routegateway.core.bridge;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.routegateway.core.json.Json;

/** Small JSON tree helpers shared by the codecs. */
final class Nodes {

    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Nodes() {}

    static ObjectNode object() {
        return F.objectNode();
    }

    static ArrayNode array() {
        return F.arrayNode();
    }

    /** The first present, non-null field of the given names (camelCase and snake_case spellings). */
    static JsonNode field(JsonNode node, String... names) {
        if (node == null) {
            return null;
        }
        for (String name : names) {
            JsonNode value = node.get(name);
            if (value != null && !value.isNull()) {
                return value;
            }
        }
        return null;
    }

    static String text(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        if (value == null) {
            return null;
        }
        if (!value.isValueNode()) {
            throw new BridgeException("field " + names[0] + " must be a string");
        }
        return value.asText();
    }

    static Integer integer(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        if (value == null) {
            return null;
        }
        if (!value.isNumber()) {
            throw new BridgeException("field " + names[0] + " must be a number");
        }
        return value.asInt();
    }

    static Long count(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        return value != null && value.isNumber() ? value.asLong() : null;
    }

    static Double decimal(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        if (value == null) {
            return null;
        }
        if (!value.isNumber()) {
            throw new BridgeException("field " + names[0] + " must be a number");
        }
        return value.asDouble();
    }

    static Boolean bool(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        return value != null && value.isBoolean() ? value.asBoolean() : null;
    }

    /** An array field as a list; absent is empty, a non-array is a shape error. */
    static List<JsonNode> list(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        if (value == null) {
            return List.of();
        }
        if (!value.isArray()) {
            throw new BridgeException("field " + names[0] + " must be an array");
        }
        List<JsonNode> items = new ArrayList<>(value.size());
        value.forEach(items::add);
        return items;
    }

    /** A string or an array of strings. */
    static List<String> strings(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        if (value == null) {
            return List.of();
        }
        if (value.isTextual()) {
            return List.of(value.asText());
        }
        List<String> strings = new ArrayList<>();
        for (JsonNode item : list(node, names)) {
            strings.add(item.asText());
        }
        return strings;
    }

    static void put(ObjectNode node, String name, String value) {
        if (value != null) {
            node.put(name, value);
        }
    }

    static void put(ObjectNode node, String name, Integer value) {
        if (value != null) {
            node.put(name, value);
        }
    }

    static void put(ObjectNode node, String name, Long value) {
        if (value != null) {
            node.put(name, value);
        }
    }

    static void put(ObjectNode node, String name, Double value) {
        if (value != null) {
            node.put(name, value);
        }
    }

    static void put(ObjectNode node, String name, Boolean value) {
        if (value != null) {
            node.put(name, value);
        }
    }

    static void put(ObjectNode node, String name, JsonNode value) {
        if (value != null) {
            node.set(name, value);
        }
    }

    /** Parses JSON text; null when it is not JSON. */
    static JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    /** Parses JSON text that must be JSON. @throws BridgeException when it is not */
    static JsonNode parseStrict(String text, String what) {
        JsonNode node = parse(text);
        if (node == null) {
            throw new BridgeException(what + " is not JSON");
        }
        return node;
    }

    /** A tool call's arguments text as an object; empty text is an empty object. */
    static ObjectNode arguments(String text) {
        if (text == null || text.isBlank()) {
            return object();
        }
        JsonNode node = parse(text);
        if (node == null || !node.isObject()) {
            throw new BridgeException("tool call arguments are not a JSON object");
        }
        return (ObjectNode) node;
    }

    static String write(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsString(node);
        } catch (IOException e) {
            throw new BridgeException("unwritable JSON: " + e.getMessage());
        }
    }

    /** The {@code data:} URL split into media type and base64 data; null for any other URL. */
    static Part.Image image(String url) {
        if (url == null) {
            throw new BridgeException("image without url");
        }
        if (url.startsWith("data:")) {
            int comma = url.indexOf(',');
            int base64 = url.indexOf(";base64");
            if (comma > 0 && base64 > 0 && base64 < comma) {
                return Part.Image.inline(url.substring(5, base64), url.substring(comma + 1));
            }
            throw new BridgeException("image data URL must be base64");
        }
        return Part.Image.ofUrl(url);
    }

    /** The message of an error envelope of any of the protocols, or the text itself. */
    static String errorMessage(JsonNode body, String raw) {
        if (body != null) {
            JsonNode error = body.isArray() && body.size() > 0 ? body.get(0).get("error") : body.get("error");
            if (error != null && error.isObject() && error.path("message").isTextual()) {
                return error.path("message").asText();
            }
            if (error != null && error.isTextual()) {
                return error.asText();
            }
            if (body.path("message").isTextual()) {
                return body.path("message").asText();
            }
        }
        if (raw == null || raw.isBlank()) {
            return "upstream error";
        }
        return raw.length() > 2000 ? raw.substring(0, 2000) : raw;
    }
}
