package io.routegateway.core.model;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Automatic (default / from recent outcomes) or manual 1..100. */
public enum WeightMode {
    AUTO,
    MANUAL;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static WeightMode fromWire(String value) {
        return valueOf(value.strip().toUpperCase(Locale.ROOT));
    }
}
