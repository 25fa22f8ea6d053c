package io.routegateway.state.repository;

import java.time.Instant;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/**
 * The schema keeps timestamps as TEXT holding {@link Instant#toString()} (the spec's DDL); entities
 * see {@link Instant}s, so comparisons happen on instants and never on the text.
 */
@Converter
public class InstantText implements AttributeConverter<Instant, String> {

    @Override
    public String convertToDatabaseColumn(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    @Override
    public Instant convertToEntityAttribute(String text) {
        return text == null ? null : Instant.parse(text);
    }
}
