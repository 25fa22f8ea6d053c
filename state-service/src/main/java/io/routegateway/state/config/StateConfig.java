package io.routegateway.state.config;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of state-service, under {@code state.*}. */
@ConfigMapping(prefix = "state")
public interface StateConfig {

    /** The admin API. */
    Admin admin();

    /**
     * Base URL of recovery-service ({@code STATE_RECOVERY_URL}): the admin API's credential test
     * delegates to its {@code POST /recovery/v1/credentials/{id}/test}.
     */
    @WithDefault("http://127.0.0.1:8082")
    @Pattern(regexp = "https?://\\S+", message = "must be an http(s) URL")
    String recoveryUrl();

    /** The raw request logs ({@code state.request-logs.*}), kept in daily partitions. */
    RequestLogs requestLogs();

    /** The per-minute, hourly and daily usage rollups ({@code state.usage-rollups.*}). */
    UsageRollups usageRollups();

    /** The audit log of admin writes ({@code state.audit.*}). */
    Audit audit();

    interface Audit {

        /** How long audit entries are kept ({@code STATE_AUDIT_RETENTION}). */
        @WithDefault("400d")
        Duration retention();

        /** How often old entries are pruned (a Quarkus scheduler period, {@code off} disables it). */
        @WithDefault("1h")
        String pruneEvery();
    }

    interface RequestLogs {

        /**
         * How long raw request logs are kept ({@code STATE_REQUEST_LOGS_RETENTION}, at least a day): a
         * day's partition is dropped once its whole day is older than this.
         */
        @WithDefault("30d")
        Duration retention();

        /** How many days after today have their partitions ready ({@code 0..366}). */
        @WithDefault("3")
        @Min(0)
        @Max(366)
        int daysAhead();

        /**
         * How often the maintenance job runs ({@code usage/LogMaintenance}; a Quarkus scheduler
         * period, {@code off} disables it).
         */
        @WithDefault("10m")
        String maintenanceEvery();
    }

    interface UsageRollups {

        /** How long the per-minute rollups are kept ({@code STATE_USAGE_ROLLUPS_RETENTION}). */
        @WithDefault("400d")
        Duration retention();

        /**
         * How long the hourly rollups are kept ({@code STATE_USAGE_ROLLUPS_HOURLY_RETENTION}). Stats
         * read a range's ragged hours from them and its ragged minutes from the per-minute level, so
         * ranges older than a level's retention lose those edges: keep minute ≤ hourly ≤ daily.
         */
        @WithDefault("400d")
        Duration hourlyRetention();

        /** How long the daily rollups are kept ({@code STATE_USAGE_ROLLUPS_DAILY_RETENTION}). */
        @WithDefault("800d")
        Duration dailyRetention();
    }

    interface Admin {

        /**
         * The bootstrap (break-glass) admin token ({@code STATE_ADMIN_TOKEN}). Required:
         * only the {@code dev} and {@code test} profiles have a local default.
         */
        @Size(min = 16, message = "must be at least 16 characters")
        String token();

        /**
         * Whether the bootstrap token is accepted at all ({@code STATE_ADMIN_BREAK_GLASS}): it is the
         * break-glass admin, for the first API token and for emergencies. Once automation and people
         * have their own tokens, turn it off; the token setting then authenticates nothing.
         */
        @WithDefault("true")
        boolean breakGlass();
    }
}
