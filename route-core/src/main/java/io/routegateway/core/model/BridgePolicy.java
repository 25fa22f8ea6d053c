package io.routegateway.core.model;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a group serves a request whose protocol some of its credentials do not speak: through a
 * protocol bridge or not, and whether native credentials come first.
 */
public enum BridgePolicy {
    /**
     * Native credentials first: a bridged credential is used only when no native one of the group is
     * eligible (the default).
     */
    NATIVE_FIRST,
    /** Native and bridged credentials compete on priority and weight alike. */
    ANY,
    /** No conversion: a request only native credentials can serve; otherwise {@code native_route_required}. */
    NATIVE_ONLY;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static BridgePolicy fromWire(String value) {
        if (value != null) {
            String normalized = value.strip().toUpperCase(Locale.ROOT);
            for (BridgePolicy policy : values()) {
                if (policy.name().equals(normalized)) {
                    return policy;
                }
            }
        }
        throw new IllegalArgumentException("unknown bridge policy: " + value);
    }
}
