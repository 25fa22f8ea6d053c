package io.routegateway.recovery.config;

import java.time.Duration;
import java.util.Optional;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Settings of recovery-service, under {@code recovery.*}. Named apart from route-core's {@code
 * RecoveryConfig} (an account's recovery rule), which the service reads on every tick.
 */
@ConfigMapping(prefix = "recovery")
public interface RecoveryServiceConfig {

    /**
     * Seconds between two recovery ticks; each tick looks for accounts that need recovery and runs
     * their recovery mode ({@code RECOVERY_TICK_SECONDS}).
     */
    @WithDefault("30")
    @Min(1)
    int tickSeconds();

    /**
     * Deprecated: {@code route.default-time-zone} ({@code ROUTE_DEFAULT_TIME_ZONE}) is the one key,
     * shared with state-service. This former key ({@code RECOVERY_DEFAULT_TIME_ZONE}) is honoured
     * only while that one is unset.
     */
    @Deprecated
    Optional<String> defaultTimeZone();

    /** Leader election among replicas: only the holder of the advisory lock ticks. */
    Leader leader();

    /** Healthcheck probes of one tick. */
    Probe probe();

    /** Model tests to upstream LLM APIs: the same two ceilings as forwarding, no total deadline. */
    Upstream upstream();

    interface Leader {

        /**
         * Key of the PostgreSQL session advisory lock ({@code pg_try_advisory_lock}) that elects the one
         * ticking replica ({@code RECOVERY_LEADER_LOCK_KEY}). Every replica of one deployment must use
         * the same key; it must not collide with other advisory locks on the same database.
         */
        @WithDefault("7315402961")
        long lockKey();
    }

    interface Probe {

        /**
         * How many healthcheck probes one tick runs at once ({@code RECOVERY_PROBE_CONCURRENCY}). A probe
         * may wait for a stalled upstream up to the read-gap timeout, so probes run side by side.
         */
        @WithDefault("4")
        @Min(1)
        @Max(64)
        int concurrency();
    }

    interface Upstream {

        /** Longest wait for a connection to an upstream ({@code RECOVERY_UPSTREAM_CONNECT_TIMEOUT}). */
        @WithDefault("20s")
        Duration connectTimeout();

        /**
         * Longest silence between two reads of an upstream response before the test counts as a
         * transport failure ({@code RECOVERY_UPSTREAM_READ_GAP_TIMEOUT}).
         */
        @WithDefault("180s")
        Duration readGapTimeout();
    }
}
