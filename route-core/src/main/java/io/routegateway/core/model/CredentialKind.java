package io.routegateway.core.model;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** An api key on a relay or vendor, or an OAuth "official" subscription account. */
public enum CredentialKind {
    API("api"),
    OFFICIAL("official");

    private final String wire;

    CredentialKind(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static CredentialKind fromWire(String value) {
        if (value != null) {
            String normalized = value.strip().toLowerCase(Locale.ROOT);
            for (CredentialKind kind : values()) {
                if (kind.wire.equals(normalized)) {
                    return kind;
                }
            }
        }
        throw new IllegalArgumentException("unknown credential kind: " + value);
    }
}
