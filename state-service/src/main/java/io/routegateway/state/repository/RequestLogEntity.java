package io.routegateway.state.repository;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A row of {@code request_logs}: one client request or probe ({@code RequestCompleted}), failed ones
 * included. Written by the usage consumer with plain SQL ({@code ON CONFLICT DO NOTHING}); this
 * mapping is for reading. Filter and sort by {@link #occurredEpochMs}, not by the text timestamp.
 */
@Entity
@Table(name = "request_logs")
public class RequestLogEntity extends PanacheEntityBase {

    @Id
    @Column(name = "request_id")
    public UUID requestId;

    @Convert(converter = InstantText.class)
    @Column(name = "occurred_at", nullable = false)
    public Instant occurredAt;

    /** {@link #occurredAt} in epoch milliseconds: what range filters and ordering use. */
    @Column(name = "occurred_epoch_ms", nullable = false)
    public long occurredEpochMs;

    /** {@code Protocol.wire()}. */
    public String protocol;

    @Column(name = "access_key_id")
    public String accessKeyId;

    @Column(name = "group_id")
    public String groupId;

    @Column(name = "credential_id")
    public String credentialId;

    @Column(name = "requested_model")
    public String requestedModel;

    @Column(name = "model_key")
    public String modelKey;

    @Column(nullable = false)
    public int attempts;

    /** HTTP status returned to the client. */
    @Column(nullable = false)
    public int status;

    @Column(name = "reason_code")
    public String reasonCode;

    @Column(name = "latency_ms", nullable = false)
    public long latencyMs;

    @Column(name = "ttft_ms")
    public Long ttftMs;

    @Column(name = "input_tokens")
    public Long inputTokens;

    @Column(name = "output_tokens")
    public Long outputTokens;

    /** Of the input tokens, those read from the prompt cache; null = not reported. */
    @Column(name = "cache_read_tokens")
    public Long cacheReadTokens;

    /** Of the input tokens, those written to the cache for five minutes; null = not reported. */
    @Column(name = "cache_write_5m_tokens")
    public Long cacheWrite5mTokens;

    /** Of the input tokens, those written to the cache for one hour; null = not reported. */
    @Column(name = "cache_write_1h_tokens")
    public Long cacheWrite1hTokens;

    /** Of the output tokens, the reasoning ones; null = not reported. */
    @Column(name = "reasoning_tokens")
    public Long reasoningTokens;

    /** Null when the model has no price in {@code model_prices}; priced per token kind. */
    @Column(name = "cost_micros")
    public Long costMicros;

    @Column(nullable = false)
    public boolean stream;

    @Column(name = "client_disconnected", nullable = false)
    public boolean clientDisconnected;

    @Column(nullable = false)
    public boolean success;

    @Column(nullable = false)
    public boolean probe;

    /** The team the request was charged to; null = none. */
    @Column(name = "team_id")
    public String teamId;
}
