package io.routegateway.common.auth;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.routegateway.common.config.RouteConfig;
import io.routegateway.core.access.BearerToken;

/**
 * The internal token ({@code route.internal-token}) that recovery-service requires on its API and
 * state-service sends. Created only by the services that inject it; creating it without a token of
 * at least {@value #MIN_LENGTH} characters fails, so a misconfigured service does not start. The
 * token is never part of a message, a log line or {@link #toString()}.
 */
@Singleton
public class InternalToken {

    /** The shortest token accepted (e.g. {@code openssl rand -hex 32} gives 64 characters). */
    public static final int MIN_LENGTH = 32;

    private final String token;

    @Inject
    InternalToken(RouteConfig config) {
        this(config.internalToken().orElse(null));
    }

    /** A token given directly (tests). */
    public InternalToken(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalStateException(
                    "route.internal-token (ROUTE_INTERNAL_TOKEN) is not set: recovery-service and state-service"
                            + " need the same internal token");
        }
        if (token.strip().length() < MIN_LENGTH) {
            throw new IllegalStateException(
                    "route.internal-token (ROUTE_INTERNAL_TOKEN) must be at least " + MIN_LENGTH + " characters");
        }
        this.token = token.strip();
    }

    /** The {@code Authorization} header value a caller of the internal API sends. */
    public String authorization() {
        return BearerToken.header(token);
    }

    /** Checks the {@code Authorization} header of a call to the internal API (constant-time). */
    public BearerToken.Check check(String authorizationHeader) {
        return BearerToken.check(authorizationHeader, token);
    }

    @Override
    public String toString() {
        return "InternalToken[redacted]";
    }
}
