package io.routegateway.common.config;

import java.util.Optional;

import jakarta.validation.constraints.Pattern;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings every route gateway service shares, under {@code route.*}. */
@ConfigMapping(prefix = "route")
public interface RouteConfig {

    /**
     * Key that encrypts upstream secrets at rest and on the state topic: base64 of 32 random bytes
     * ({@code ROUTE_SECRET_ENCRYPTION_KEY}). Every service of one deployment needs the same key.
     * Required: only the {@code dev} and {@code test} profiles have a local default.
     */
    @Pattern(regexp = "[A-Za-z0-9+/]{43}=", message = "must be base64 of exactly 32 bytes")
    String secretEncryptionKey();

    /**
     * Whether secrets sealed in the old {@code v1:} form (bound to the credential id alone, not to
     * platform and base URL) still open ({@code ROUTE_SECRET_ACCEPT_V1}). Off: state-service
     * re-seals every v1 value at start-up, so only an upgrade window where a reader may start before
     * state-service needs it on.
     */
    @WithDefault("false")
    boolean secretAcceptV1();

    /**
     * Bearer token of the internal API between the services ({@code ROUTE_INTERNAL_TOKEN}, at least
     * {@value io.routegateway.common.auth.InternalToken#MIN_LENGTH} characters): recovery-service
     * answers its API only to a caller that presents it, and state-service presents it when it
     * delegates a model test. Required by those two ({@link io.routegateway.common.auth.InternalToken}
     * refuses to start without it); the gateway does not read it. Only the {@code dev} and {@code
     * test} profiles have a local value.
     */
    Optional<String> internalToken();

    /**
     * Zone of a scheduled recovery rule that names none ({@code ROUTE_DEFAULT_TIME_ZONE}, an IANA id
     * such as {@code Asia/Shanghai}): state-service stamps it into the rules the admin API writes,
     * recovery-service reads it for rules stored without one. Unset: the JVM's zone, the spec's
     * "local time". recovery-service still honours its former key {@code recovery.default-time-zone}
     * (deprecated) when this one is unset; route-core {@code DefaultZone} decides. An unknown id
     * stops the service at start.
     */
    Optional<String> defaultTimeZone();

    /** Where PostgreSQL is; the JDBC URL (Flyway) and the reactive URL are both built from it. */
    Db db();

    interface Db {

        /** Host name of the PostgreSQL server ({@code ROUTE_DB_HOST}). */
        @WithDefault("127.0.0.1")
        String host();

        /** Port of the PostgreSQL server ({@code ROUTE_DB_PORT}). */
        @WithDefault("5432")
        int port();

        /** Database name ({@code ROUTE_DB_NAME}). */
        @WithDefault("route_gateway")
        String name();
    }
}
