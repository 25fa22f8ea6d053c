package io.routegateway.gateway.config;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of gateway-service, under {@code gateway.*}. */
@ConfigMapping(prefix = "gateway")
public interface GatewayConfig {

    /** The config prefix of the upstream timeouts, named in timeout failure messages. */
    String UPSTREAM_PREFIX = "gateway.upstream";

    /** Outbound calls to upstream LLM APIs. */
    Upstream upstream();

    /** Client requests. */
    Request request();

    /** The retry loop across credentials. */
    Retry retry();

    /** Session affinity memory of this replica. */
    Affinity affinity();

    /** The in-memory pool view built from the state topics. */
    View view();

    /** Outcome and usage publication to Kafka. */
    Publish publish();

    /** Team and key limits, shared between the replicas on {@code route.admissions}. */
    Admission admission();

    /** What this replica takes on at once, whoever sends it (load shedding). */
    Load load();

    interface Load {

        /**
         * Forwarded requests in progress on this replica (a stream counts until it ends); one more
         * is shed with 503 {@code gateway_overloaded} ({@code GATEWAY_LOAD_MAX_CONCURRENT_REQUESTS}).
         */
        @WithDefault("2000")
        @Min(1)
        int maxConcurrentRequests();

        /**
         * Bytes of request bodies (by their declared length) held by the requests in progress; a
         * request whose body would pass it is shed. Default: an eighth of the heap, as a body costs up to six times its size while it is parsed ({@code
         * GATEWAY_LOAD_MAX_IN_FLIGHT_BODY_BYTES}).
         */
        java.util.Optional<MemorySize> maxInFlightBodyBytes();
    }

    /** What admission does while this replica cannot share its counts with its peers. */
    enum WhenUnshared {
        /** Admit on what this replica knows: its own leases and its peers' read so far. */
        LOCAL,
        /** Refuse limited requests with 503 {@code limits_unavailable}. */
        REFUSE
    }

    interface Admission {

        /**
         * How long an admitted request holds its slot unless it closes or renews it first; the
         * holder renews its open leases after a third of the term, so a crashed replica's slots free
         * themselves within one term ({@code GATEWAY_ADMISSION_LEASE_TTL}).
         */
        @WithDefault("60s")
        Duration leaseTtl();

        /**
         * {@code local} (count what this replica knows, so during the outage each replica admits up
         * to the limit on its own) or {@code refuse} (503 {@code limits_unavailable} for limited
         * keys) while {@code route.admissions} cannot be read or written ({@code
         * GATEWAY_ADMISSION_WHEN_UNSHARED}).
         */
        @WithDefault("local")
        WhenUnshared whenUnshared();

        /**
         * Counts are unshared once the lease reader has not caught up with {@code route.admissions}
         * for this long, or a lease could not be published within it ({@code GATEWAY_ADMISSION_MAX_LAG}).
         */
        @WithDefault("5s")
        Duration maxLag();

        /**
         * How far back a starting replica reads its peers' leases: at least the longest window
         * counted (a minute) plus a lease term's margin ({@code GATEWAY_ADMISSION_LOOKBACK}).
         */
        @WithDefault("2m")
        Duration lookback();

        /**
         * {@code retention.ms} of {@code route.admissions} when the gateway creates it: leases matter
         * for a few minutes only ({@code GATEWAY_ADMISSION_TOPIC_RETENTION}).
         */
        @WithDefault("10m")
        Duration topicRetention();

        /**
         * Longest an admitted request waits for a slot when routing finds only credentials at their
         * own limits ({@code credential_full}) in its way, routing again every 20 ms; past it the
         * request is {@code no_available_credential}. 0 = never wait ({@code
         * GATEWAY_ADMISSION_SLOT_WAIT}).
         */
        @WithDefault("5s")
        Duration slotWait();

        /**
         * How long a request refused by fair share is decided again (every 20 ms) before the refusal
         * is answered: the peers' closes reach this replica one Kafka hop late, so a team whose
         * last request just ended elsewhere would otherwise be refused at its share. 0 = answer at
         * once ({@code GATEWAY_ADMISSION_FAIR_SHARE_RECHECK}).
         */
        @WithDefault("500ms")
        Duration fairShareRecheck();

        /**
         * Leases gather for at most this long and leave as one message ({@code LeaseBatch}, keyed by
         * this replica's id), so an admitted request costs two list appends instead of two Kafka
         * sends; the peers see a lease up to this much later, which is what the window adds to the
         * limits' overshoot. 0 (the default: limits as tight as the shared counts allow) sends each
         * lease alone, as a single object keyed by its subject; 2ms halves admission's CPU cost at
         * some overshoot (CI measured an rpm overshoot of 7 against the bound of 6 with it:
         * docs/gateway-service.md, "Cost"). At most 100 ms ({@code GATEWAY_ADMISSION_PUBLISH_WINDOW}).
         */
        @WithDefault("0s")
        Duration publishWindow();

        /**
         * The rate limits of every key that does not set its own, field by field ({@code
         * Limits.withDefaults}): unset (the default here) = none; the chart and the local run ship
         * them on. Every replica must carry the same values.
         */
        DefaultKeyLimits defaultKeyLimits();
    }

    interface DefaultKeyLimits {

        /** Requests per minute ({@code GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_RPM}). */
        java.util.Optional<@Min(1) Integer> rpm();

        /** Tokens per minute ({@code GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_TPM}). */
        java.util.Optional<@Min(1) Long> tpm();

        /** Requests in progress at once ({@code GATEWAY_ADMISSION_DEFAULT_KEY_LIMITS_PARALLEL_REQUESTS}). */
        java.util.Optional<@Min(1) Integer> parallelRequests();
    }

    interface Upstream {

        /** Longest wait for a connection to an upstream ({@code GATEWAY_UPSTREAM_CONNECT_TIMEOUT}). */
        @WithDefault("20s")
        Duration connectTimeout();

        /**
         * Longest silence between two reads of an upstream response before the attempt counts as a
         * transport failure ({@code GATEWAY_UPSTREAM_READ_GAP_TIMEOUT}). There is no total deadline.
         */
        @WithDefault("180s")
        Duration readGapTimeout();

        /**
         * Largest upstream answer the gateway reads whole (non-streaming answers, and the error
         * answers of streaming requests); a larger one is cut off and the client gets 502 {@code
         * upstream_response_too_large}, with no outcome recorded for the credential ({@code
         * GATEWAY_UPSTREAM_MAX_RESPONSE_SIZE}). Streamed answers pass through without this bound.
         */
        @WithDefault("16M")
        MemorySize maxResponseSize();
    }

    interface Request {

        /**
         * Largest client request body; a larger one is refused with 413 {@code request_too_large}
         * ({@code GATEWAY_REQUEST_MAX_BODY_SIZE}).
         */
        @WithDefault("32M")
        MemorySize maxBodySize();

        /**
         * Longest time from an authenticated request's headers to the end of its body; a client that
         * declares more bytes than it sends gets 408 {@code request_body_timeout} and the connection is
         * closed ({@code GATEWAY_REQUEST_BODY_READ_TIMEOUT}).
         */
        @WithDefault("60s")
        Duration bodyReadTimeout();

        /** Deepest nesting of objects and arrays in a body ({@code json_limits_exceeded} past it). */
        @WithDefault("128")
        int maxJsonDepth();

        /**
         * Most JSON tokens in a body (each brace, bracket, name and value counts one): what bounds the
         * parsed tree's memory, about 75 bytes of heap per token at worst (docs/gateway-service.md).
         */
        @WithDefault("500000")
        long maxJsonTokens();

        /** Longest number in a body, in characters. */
        @WithDefault("1000")
        int maxJsonNumberLength();

        /**
         * A body larger than this is parsed on a worker thread instead of the event loop, so a large
         * body does not hold up the other requests of its event loop while it is read.
         */
        @WithDefault("256K")
        MemorySize parseOffLoopAbove();
    }

    interface Retry {

        /**
         * Most distinct credentials one client request may try before it gives up with {@code
         * no_available_credential}: bounds the latency of a request against a pool that fails
         * wholesale ({@code GATEWAY_RETRY_MAX_CREDENTIALS}).
         */
        @WithDefault("16")
        @Min(1)
        int maxCredentials();
    }

    interface Affinity {

        /** How long a prompt prefix keeps preferring the credential that served it ({@code GATEWAY_AFFINITY_TTL}). */
        @WithDefault("1h")
        Duration ttl();

        /** Affinity entries kept; the oldest are evicted past it ({@code GATEWAY_AFFINITY_CAPACITY}). */
        @WithDefault("10000")
        @Min(1)
        int capacity();
    }

    interface View {

        /**
         * Sliding window of this replica's own attempt outcomes that drives automatic credential
         * weights ({@code GATEWAY_VIEW_STATS_WINDOW}).
         */
        @WithDefault("60s")
        Duration statsWindow();

        /** How often the automatic weights are recomputed from the window ({@code GATEWAY_VIEW_STATS_REFRESH}). */
        @WithDefault("2s")
        Duration statsRefresh();

        /** How often the state topics are checked for new partitions ({@code GATEWAY_VIEW_PARTITION_REFRESH}). */
        @WithDefault("30s")
        Duration partitionRefresh();

        /**
         * Whether this replica applies its peers' outcomes from {@code route.outcomes} to its view as
         * they are published, one Kafka hop after the replica that saw them, rather than waiting for
         * state-service's snapshot ({@code GATEWAY_VIEW_PEER_OUTCOMES}).
         */
        @WithDefault("true")
        boolean peerOutcomes();
    }

    interface Publish {

        /**
         * Outcome events or usage records waiting for a Kafka acknowledgement, per topic, before new
         * ones are dropped (counted in {@code gateway_events_dropped_total} and logged): publishing
         * never blocks or fails a client request ({@code GATEWAY_PUBLISH_MAX_PENDING}).
         */
        @WithDefault("10000")
        @Min(1)
        @Max(1_000_000)
        int maxPending();

        /**
         * Successes that change nothing in this replica's view are published at most once per
         * credential and model per window, the latest of the window when it ends; a success that
         * changes the view, and the first of a window, go at once, and every failure first releases
         * its credential's held successes ({@code SuccessCoalescer}). 0 publishes every success at
         * once. At most 1 minute ({@code GATEWAY_PUBLISH_SUCCESS_WINDOW}).
         */
        @WithDefault("1s")
        Duration successWindow();

        /**
         * Usage records gather for at most this long and go to Kafka as one message (a JSON array,
         * {@code UsageBatch}), so a request costs a list append instead of a Kafka send. 0 sends each
         * record alone, as a single object: the setting for a state-service older than batches,
         * during a rolling upgrade. At most 1 second ({@code GATEWAY_PUBLISH_USAGE_BATCH_WINDOW}).
         */
        @WithDefault("20ms")
        Duration usageBatchWindow();

        /**
         * The most usage records in one message; a batch also ends at 256 Ki characters ({@code
         * GATEWAY_PUBLISH_USAGE_BATCH_MAX_RECORDS}).
         */
        @WithDefault("500")
        @Min(1)
        @Max(10_000)
        int usageBatchMaxRecords();
    }
}
