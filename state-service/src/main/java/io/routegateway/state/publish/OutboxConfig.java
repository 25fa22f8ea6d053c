package io.routegateway.state.publish;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The outbox relay and the compacted topics it publishes to, under {@code state.outbox.*}. */
@ConfigMapping(prefix = "state.outbox")
public interface OutboxConfig {

    /**
     * How often the relay looks for unpublished rows besides being triggered after each commit
     * ({@code STATE_OUTBOX_POLL_INTERVAL}); this bounds how long a row left by a crash or a failed
     * send waits.
     */
    @WithDefault("1s")
    Duration pollInterval();

    /** Rows one relay round reads and publishes ({@code STATE_OUTBOX_BATCH_SIZE}). */
    @WithDefault("500")
    @Min(1)
    @Max(10_000)
    int batchSize();

    /**
     * Largest message the relay sends ({@code STATE_OUTBOX_MAX_MESSAGE_BYTES}): key, value and
     * framing in UTF-8 bytes. Keep it below the producer's {@code max.request.size} (1048576 by
     * default) and the topics' {@code max.message.bytes}; a larger snapshot is marked failed in the
     * outbox, never retried.
     */
    @WithDefault("1000000")
    @Min(1024)
    int maxMessageBytes();

    /** The compacted topics, created at start-up when absent. */
    Topics topics();

    interface Topics {

        /**
         * Partitions of {@code route.credential-state}, {@code route.access-keys} and {@code
         * route.groups} when state-service creates them ({@code STATE_OUTBOX_TOPICS_PARTITIONS}).
         * Readers consume every partition, so this only spreads broker load.
         */
        @WithDefault("3")
        @Min(1)
        int partitions();

        /**
         * Replication factor of those topics when created ({@code
         * STATE_OUTBOX_TOPICS_REPLICATION_FACTOR}); -1 takes the broker's {@code
         * default.replication.factor}.
         */
        @WithDefault("-1")
        short replicationFactor();
    }
}
