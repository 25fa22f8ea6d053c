package io.routegateway.core.json;

import java.io.IOException;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one JSON configuration of every wire format: snake_case names (the spec's column names),
 * ISO-8601 instants, unknown fields tolerated (a v1 reader must accept optional fields added
 * later), unknown event types rejected (Jackson fails on an unknown subtype id). Only record
 * components are wire fields: derived accessors such as {@code isCatchAll()} never leak.
 */
public final class Json {

    public static final ObjectMapper MAPPER = configure(new ObjectMapper());

    private Json() {}

    /**
     * Strict read of a stored JSON object such as {@code config_json}: null or blank text is an
     * empty object; anything that is not exactly one JSON object (unparsable, an array, trailing
     * tokens) is empty, so the caller can refuse to overwrite it.
     */
    public static Optional<ObjectNode> readObject(String text) {
        if (text == null || text.isBlank()) {
            return Optional.of(MAPPER.createObjectNode());
        }
        try {
            JsonNode node = MAPPER.reader()
                    .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(text);
            return node != null && node.isObject() ? Optional.of((ObjectNode) node) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The one write of a value the project defines (a wire record, a JSON tree, a list of strings):
     * such a value always serializes, so a failure is a bug, thrown unchecked.
     */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    (value == null ? "null" : value.getClass().getSimpleName()) + " did not serialize", e);
        }
    }

    /** As {@link #write(Object)}, written as the declared {@code type} (a sealed event carries its type name). */
    public static <T> String write(T value, Class<T> type) {
        try {
            return MAPPER.writerFor(type).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(type.getSimpleName() + " did not serialize", e);
        }
    }

    /** Applies the wire conventions to a mapper owned by a framework (e.g. Quarkus's). */
    public static ObjectMapper configure(ObjectMapper mapper) {
        return mapper.registerModule(new JavaTimeModule())
                .setVisibility(PropertyAccessor.GETTER, JsonAutoDetect.Visibility.NONE)
                .setVisibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE)
                .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}
