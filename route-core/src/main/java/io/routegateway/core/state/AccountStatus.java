package io.routegateway.core.state;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** {@code route_credentials.status}. Only {@link #OK} accounts are ever selected. */
public enum AccountStatus {
    OK,
    WARNING,
    ERROR,
    PAUSED,
    REVOKED;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static AccountStatus fromWire(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }

    /** Terminal labels are never masked by the failure count in the status tag. */
    public boolean isTerminalLabel() {
        return this == REVOKED || this == ERROR || this == PAUSED;
    }
}
