package io.routegateway.core.model;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The client protocols the gateway speaks natively. */
public enum Protocol {
    OPENAI_CHAT("openai_chat"),
    OPENAI_RESPONSES("openai_responses"),
    ANTHROPIC_MESSAGES("anthropic_messages"),
    GEMINI("gemini");

    private final String wire;

    Protocol(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static Protocol fromWire(String value) {
        if (value != null) {
            String normalized = value.strip().toLowerCase(Locale.ROOT);
            for (Protocol protocol : values()) {
                if (protocol.wire.equals(normalized)) {
                    return protocol;
                }
            }
        }
        throw new IllegalArgumentException("unknown protocol: " + value);
    }
}
