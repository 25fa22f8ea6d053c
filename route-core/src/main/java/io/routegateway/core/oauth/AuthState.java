package io.routegateway.core.oauth;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Whether an OAuth-managed official credential holds a usable access token. Revocation is not an
 * auth state: a revoked account stays {@code AccountStatus.REVOKED} (the permanent marker).
 */
public enum AuthState {
    /** The access token is usable. */
    AUTHORIZED("authorized"),
    /** The access token is past its expiry and no refresh has succeeded yet. */
    EXPIRED("expired"),
    /** An official credential without OAuth material: awaiting onboarding. */
    UNAUTHORIZED("unauthorized");

    private final String wire;

    AuthState(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static AuthState fromWire(String value) {
        if (value != null) {
            String normalized = value.strip().toLowerCase(Locale.ROOT);
            for (AuthState state : values()) {
                if (state.wire.equals(normalized)) {
                    return state;
                }
            }
        }
        throw new IllegalArgumentException("unknown auth state: " + value);
    }
}
