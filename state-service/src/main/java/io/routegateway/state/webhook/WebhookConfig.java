package io.routegateway.state.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Outgoing webhooks, under {@code state.webhook.*} (docs/state-service.md#webhooks). */
@ConfigMapping(prefix = "state.webhook")
public interface WebhookConfig {

    /**
     * Internal targets the operator allows ({@code STATE_WEBHOOK_ALLOWED_TARGETS}, comma-separated):
     * host names, addresses or CIDRs. Empty: no loopback, link-local, private or metadata target.
     */
    Optional<List<String>> allowedTargets();

    /** How often each replica looks for due deliveries ({@code STATE_WEBHOOK_POLL_INTERVAL}). */
    @WithDefault("1s")
    Duration pollInterval();

    /** Deliveries one replica claims per poll ({@code STATE_WEBHOOK_BATCH_SIZE}). */
    @WithDefault("20")
    @Min(1)
    @Max(500)
    int batchSize();

    /**
     * How long a claimed delivery stays away from other replicas ({@code STATE_WEBHOOK_LEASE});
     * longer than {@link #timeout()}: a replica that dies mid-delivery leaves it to another after this.
     */
    @WithDefault("60s")
    Duration lease();

    /** Connect and answer timeout of one delivery ({@code STATE_WEBHOOK_TIMEOUT}). */
    @WithDefault("10s")
    Duration timeout();

    /** First retry delay, doubled at each further failure ({@code STATE_WEBHOOK_BACKOFF}). */
    @WithDefault("10s")
    Duration backoff();

    /** Longest retry delay ({@code STATE_WEBHOOK_MAX_BACKOFF}). */
    @WithDefault("1h")
    Duration maxBackoff();

    /** Attempts in all before a delivery is marked failed ({@code STATE_WEBHOOK_MAX_ATTEMPTS}). */
    @WithDefault("12")
    @Min(1)
    @Max(100)
    int maxAttempts();
}
