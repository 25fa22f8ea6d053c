package io.routegateway.core.recovery;

import java.time.LocalTime;

/** What the recovery ticker does for one account on one tick. */
public sealed interface RecoveryAction permits RecoveryAction.Nothing, RecoveryAction.Reactivate, RecoveryAction.Probe {

    Nothing NOTHING = new Nothing();

    /** Not in need of recovery, mode off, or not due on this tick. */
    record Nothing() implements RecoveryAction {}

    /** Scheduled mode: unconditional reactivation for the configured time that fell in this tick. */
    record Reactivate(LocalTime scheduledTime) implements RecoveryAction {
        /** The configured time as zero-padded {@code HH:MM}, as carried by the reactivation event. */
        public String scheduledTimeText() {
            return RecoveryConfig.formatTime(scheduledTime);
        }
    }

    /** Healthcheck mode: run an explicit model test with this requested model name. */
    record Probe(String model) implements RecoveryAction {}
}
