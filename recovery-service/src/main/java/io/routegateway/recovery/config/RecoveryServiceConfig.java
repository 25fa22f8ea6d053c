package io.routegateway.recovery.config;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
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
     * Zone of a scheduled rule stored without one ({@code RECOVERY_DEFAULT_TIME_ZONE}, an IANA id such
     * as {@code Asia/Shanghai}). Unset: the JVM's zone, the spec's "local time". Rules written by the
     * admin API carry their zone explicitly, so this only matters for hand-edited configs. An unknown
     * id stops the service at start.
     */
    Optional<String> defaultTimeZone();

    /** {@link #defaultTimeZone()} as a zone: the configured id, or the JVM's zone when unset. */
    static ZoneId defaultZone(RecoveryServiceConfig config) {
        String id = config.defaultTimeZone().map(String::strip).orElse("");
        if (id.isEmpty()) {
            return ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("recovery.default-time-zone: unknown time zone '" + id + "'", e);
        }
    }

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
