package io.routegateway.recovery.config;

import jakarta.validation.constraints.Min;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of recovery-service, under {@code recovery.*}. */
@ConfigMapping(prefix = "recovery")
public interface RecoveryConfig {

    /**
     * Seconds between two recovery ticks; each tick looks for accounts that need recovery and runs
     * their recovery mode ({@code RECOVERY_TICK_SECONDS}).
     */
    @WithDefault("30")
    @Min(1)
    int tickSeconds();
}
