package io.routegateway.core.json;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
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
