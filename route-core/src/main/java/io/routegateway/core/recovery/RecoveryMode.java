package io.routegateway.core.recovery;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** {@code config_json.recovery.mode}: how an account that needs recovery comes back. */
public enum RecoveryMode {
    /** No auto recovery (the default); stored as the absence of the {@code recovery} key. */
    OFF,
    /** Unconditional reactivation at fixed local times each day. */
    SCHEDULED,
    /** A real model test at a fixed interval; recovers only if it passes. */
    HEALTHCHECK;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode for a wire name (trimmed, any case); empty when unknown. */
    public static Optional<RecoveryMode> fromWire(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        for (RecoveryMode mode : values()) {
            if (mode.wire().equals(normalized)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
