package io.routegateway.state.outcome;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How long applied event ids are remembered, under {@code state.idempotency.*}. */
@ConfigMapping(prefix = "state.idempotency")
public interface IdempotencyConfig {

    /**
     * Age after which a {@code processed_events} row is deleted ({@code STATE_IDEMPOTENCY_RETENTION}).
     * Keep it above the retention of {@code route.outcomes} (Kafka's default is 7 days): a consumer
     * that lost its offsets re-reads the topic from its start, and every event still on the topic
     * must still be recognised as applied.
     */
    @WithDefault("P14D")
    Duration retention();
}
