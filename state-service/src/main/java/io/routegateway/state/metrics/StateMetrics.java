package io.routegateway.state.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.routegateway.common.time.RecordAge;
import io.routegateway.core.event.Topics;
import io.routegateway.state.outcome.ApplyResult;

/**
 * state-service's Micrometer meters (Prometheus at {@code /q/metrics} on the management port), all in
 * one place as the gateway's {@code GatewayMetrics} and recovery-service's {@code RecoveryMetrics}.
 * Tagged counters are looked up once per tag value and cached.
 *
 * <p>Event application ({@code outcome/}):
 *
 * <ul>
 *   <li>{@code state.events.applied{result}} — events applied: {@code changed}, {@code unchanged},
 *       {@code noop} (a success acknowledged by the fast path, nothing written);
 *   <li>{@code state.events.duplicate} — redelivered events that changed nothing;
 *   <li>{@code state.events.stale} — successes at or before the credential's last applied change,
 *       ignored;
 *   <li>{@code state.events.dead_lettered{reason}} — outcome messages sent to the dead-letter topic;
 *   <li>{@code state.events.apply} — one event's transaction, lock to commit (p50, p99);
 *   <li>{@code state.events.delivery} — from the gateway's send of an outcome message (its Kafka
 *       timestamp) to this consumer taking it up (p50, p99): the first hop of propagation.
 * </ul>
 *
 * <p>Usage records ({@code usage/}): {@code state.usage.records} (offered to {@code request_logs}),
 * {@code state.usage.dead_lettered{reason}}, {@code state.usage.delivery} (from the gateway's send of
 * a usage message to this consumer taking it up, p50, p99: the usage consumer's lag); both consumers:
 * {@code state.records.sanitised{topic}} (stored after unstorable text in them was replaced).
 *
 * <p>Producer signatures ({@code signing/}): {@code state.producer.records{topic,key_id}} — outcome
 * and usage messages whose producer signature verified, by the key id that signed them (at zero for
 * every configured key from the start); a message that did not verify is dead-lettered with the
 * reason {@code signature} (both dead-letter counters).
 *
 * <p>Official accounts ({@code oauth/}): {@code state.oauth.refreshes{result}} (token-endpoint
 * refreshes: {@code refreshed}, {@code failed} — transient, retried with back-off — or {@code revoked}
 * by a permanent answer) and {@code state.oauth.expired} (authorizations whose access token ran out
 * before a refresh succeeded).
 *
 * <p>The dead-letter counters exist for each documented reason from the start (at zero), so an
 * alert on their increase sees the first dead letter too.
 *
 * <p>The outbox relay ({@code publish/}): {@code state.outbox.publication.lag} (commit that queued a
 * row to the broker's acknowledgement, p50, p99), {@code state.outbox.published}, {@code
 * state.outbox.send.failures} (not acknowledged, kept for a later round), {@code
 * state.outbox.dead_lettered} (marked failed, never publishable), and the gauges {@code
 * state.outbox.size} and {@code state.outbox.failed} (rows waiting / marked failed after the last
 * round, read from the relay at each scrape).
 */
@Singleton
public class StateMetrics {

    public static final String EVENTS_APPLIED = "state.events.applied";
    public static final String EVENTS_DUPLICATE = "state.events.duplicate";
    public static final String EVENTS_STALE = "state.events.stale";
    public static final String EVENTS_DEAD_LETTERED = "state.events.dead_lettered";
    public static final String EVENTS_APPLY = "state.events.apply";
    public static final String EVENTS_DELIVERY = "state.events.delivery";
    public static final String USAGE_RECORDS = "state.usage.records";
    public static final String USAGE_DEAD_LETTERED = "state.usage.dead_lettered";
    public static final String RECORDS_SANITISED = "state.records.sanitised";
    public static final String OUTBOX_LAG = "state.outbox.publication.lag";
    public static final String OUTBOX_SIZE = "state.outbox.size";
    public static final String OUTBOX_PUBLISHED = "state.outbox.published";
    public static final String OUTBOX_SEND_FAILURES = "state.outbox.send.failures";
    public static final String OUTBOX_DEAD_LETTERED = "state.outbox.dead_lettered";
    public static final String OUTBOX_FAILED_ROWS = "state.outbox.failed";
    public static final String USAGE_DELIVERY = "state.usage.delivery";
    public static final String OAUTH_REFRESHES = "state.oauth.refreshes";
    public static final String OAUTH_EXPIRED = "state.oauth.expired";
    public static final String WEBHOOK_DELIVERIES = "state.webhook.deliveries";
    /** {@code state_admin_sign_in_failures_total}: admin authentications refused for a bad token. */
    public static final String SIGN_IN_FAILURES = "state.admin.sign.in.failures";
    /** {@code state_admin_sign_in_throttled_total}: admin requests answered 429 for their source's failures. */
    public static final String SIGN_IN_THROTTLED = "state.admin.sign.in.throttled";

    public static final String WEBHOOK_PENDING = "state.webhook.pending";
    /** 1 while the usage consumer is paused on a passing database failure (out of space), else 0. */
    public static final String USAGE_PAUSED = "state.usage.paused";
    /** Producer messages (outcomes, usage batches) that passed their signature check, per topic and signer key id. */
    public static final String PRODUCER_RECORDS = "state.producer.records";

    /** The reasons an outcome message is dead-lettered for (the tag of {@link #EVENTS_DEAD_LETTERED}). */
    static final List<String> EVENT_DEAD_LETTER_REASONS =
            List.of("signature", "unparsable", "unstorable", "unknown_credential", "rejected", "retries_exhausted");

    /** The reasons a usage record is dead-lettered for (the tag of {@link #USAGE_DEAD_LETTERED}). */
    static final List<String> USAGE_DEAD_LETTER_REASONS =
            List.of("signature", "unparsable", "unstorable", "database_rejected", "retries_exhausted");

    /** How a refresh of an official account's access token ended (the tag of {@link #OAUTH_REFRESHES}). */
    public enum RefreshResult {
        REFRESHED,
        FAILED,
        REVOKED;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How one webhook delivery attempt ended (the {@code outcome} tag of {@link #WEBHOOK_DELIVERIES}). */
    public enum WebhookOutcome {
        /** Answered 2xx. */
        DELIVERED,
        /** Not delivered (status, timeout, refused target); tried again later. */
        RETRIED,
        /** Not delivered and no attempt left. */
        FAILED;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final MeterRegistry registry;
    private final Map<WebhookOutcome, Counter> webhookDeliveries = new EnumMap<>(WebhookOutcome.class);
    private final Counter changed;
    private final Counter unchanged;
    private final Counter noOp;
    private final Counter duplicate;
    private final Counter stale;
    private final Timer apply;
    private final Timer delivery;
    private final Counter usageRecords;
    private final Timer outboxLag;
    private final Counter outboxPublished;
    private final Counter outboxSendFailures;
    private final Counter outboxDeadLettered;
    private final Timer usageDelivery;
    private final Map<RefreshResult, Counter> oauthRefreshes = new EnumMap<>(RefreshResult.class);
    private final Counter oauthExpired;
    private final Counter signInFailures;
    private final Counter signInThrottled;
    private final ConcurrentHashMap<String, Counter> eventsDeadLettered = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> producerRecords = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> usageDeadLettered = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> sanitised = new ConcurrentHashMap<>();

    public StateMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.changed = applied("changed");
        this.unchanged = applied("unchanged");
        this.noOp = applied("noop");
        this.signInFailures = Counter.builder(SIGN_IN_FAILURES)
                .description("Admin authentications refused for a bad or unknown token or SSO bearer")
                .register(registry);
        this.signInThrottled = Counter.builder(SIGN_IN_THROTTLED)
                .description("Admin requests answered 429 because their source failed to sign in too often")
                .register(registry);
        this.stale = Counter.builder(EVENTS_STALE)
                .description("Successes delivered again after a newer change was applied, ignored")
                .register(registry);
        this.duplicate = Counter.builder(EVENTS_DUPLICATE)
                .description("Redelivered outcome events that changed nothing")
                .register(registry);
        this.apply = Timer.builder(EVENTS_APPLY)
                .description("Applying one outcome event: one database transaction")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.delivery = Timer.builder(EVENTS_DELIVERY)
                .description("From a gateway sending an outcome message to state-service taking it up")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.usageRecords = Counter.builder(USAGE_RECORDS)
                .description("Usage records offered to request_logs (duplicates included)")
                .register(registry);
        this.outboxLag = Timer.builder(OUTBOX_LAG)
                .description("From the commit that queued a snapshot to the broker's acknowledgement")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.outboxPublished = Counter.builder(OUTBOX_PUBLISHED)
                .description("Outbox messages acknowledged by the broker")
                .register(registry);
        this.outboxSendFailures = Counter.builder(OUTBOX_SEND_FAILURES)
                .description("Outbox messages the broker did not acknowledge (kept for a later round)")
                .register(registry);
        this.outboxDeadLettered = Counter.builder(OUTBOX_DEAD_LETTERED)
                .description("Outbox messages that can never be published, marked failed")
                .register(registry);
        this.usageDelivery = Timer.builder(USAGE_DELIVERY)
                .description("From a gateway sending a usage message to state-service taking it up")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        for (RefreshResult result : RefreshResult.values()) {
            oauthRefreshes.put(
                    result,
                    Counter.builder(OAUTH_REFRESHES)
                            .description("Refreshes of official accounts' access tokens, by how they ended")
                            .tag("result", result.wire())
                            .register(registry));
        }
        this.oauthExpired = Counter.builder(OAUTH_EXPIRED)
                .description("Official accounts whose access token expired before a refresh succeeded")
                .register(registry);
        for (WebhookOutcome outcome : WebhookOutcome.values()) {
            webhookDeliveries.put(
                    outcome,
                    Counter.builder(WEBHOOK_DELIVERIES)
                            .description("Webhook delivery attempts by outcome")
                            .tag("outcome", outcome.wire())
                            .register(registry));
        }
        EVENT_DEAD_LETTER_REASONS.forEach(reason -> eventsDeadLettered.computeIfAbsent(reason, this::eventDeadLetters));
        USAGE_DEAD_LETTER_REASONS.forEach(reason -> usageDeadLettered.computeIfAbsent(reason, this::usageDeadLetters));
    }

    private Counter applied(String result) {
        return Counter.builder(EVENTS_APPLIED)
                .description("Outcome events applied")
                .tag("result", result)
                .register(registry);
    }

    // --- event application

    /**
     * An outcome message stamped at {@code stampedMillis} (Kafka's create time, the gateway's clock:
     * skew between hosts shows here, and a stamp ahead of this clock counts as 0) was taken up at
     * {@code nowMillis}. A message without a timestamp (negative) is not timed.
     */
    public void delivered(long stampedMillis, long nowMillis) {
        long age = RecordAge.millis(stampedMillis, nowMillis);
        if (age != RecordAge.UNSTAMPED) {
            delivery.record(age, TimeUnit.MILLISECONDS);
        }
    }

    public Timer.Sample startApply() {
        return Timer.start(registry);
    }

    /** One event's transaction ended: timed, and counted by what it did. */
    public void applied(Timer.Sample sample, ApplyResult result) {
        sample.stop(apply);
        switch (result.kind()) {
            case CHANGED -> changed.increment();
            case UNCHANGED -> unchanged.increment();
            case DUPLICATE -> duplicate.increment();
            case STALE -> stale.increment();
            case NO_OP -> noOp.increment();
        }
    }

    /** A success acknowledged by the fast path: one read, nothing written, not timed as a transaction. */
    /** A failed admin authentication ({@code state_admin_sign_in_failures_total}). */
    public void signInFailed() {
        signInFailures.increment();
    }

    /** An admin request refused for its source's failures ({@code state_admin_sign_in_throttled_total}). */
    public void signInThrottled() {
        signInThrottled.increment();
    }

    public void noOp() {
        noOp.increment();
    }

    /**
     * @param reason {@code signature}, {@code unparsable}, {@code unstorable}, {@code unknown_credential}, {@code rejected}
     *     or {@code retries_exhausted}
     */
    public void eventDeadLettered(String reason) {
        eventsDeadLettered.computeIfAbsent(reason, this::eventDeadLetters).increment();
    }

    private Counter eventDeadLetters(String reason) {
        return Counter.builder(EVENTS_DEAD_LETTERED)
                .description("Outcome messages sent to the dead-letter topic")
                .tag("reason", reason)
                .register(registry);
    }

    // --- producer signatures (signing/)

    /** A configured producer key: its counters exist from the start, at zero, on both topics. */
    public void producerKeyConfigured(String keyId) {
        producerRecords(Topics.OUTCOMES, keyId);
        producerRecords(Topics.USAGE, keyId);
    }

    /**
     * One message of {@code topic} passed its signature check under {@code keyId} (a configured key
     * id, so the tag stays bounded by the configuration).
     */
    public void producerRecord(String topic, String keyId) {
        producerRecords(topic, keyId).increment();
    }

    private Counter producerRecords(String topic, String keyId) {
        return producerRecords.computeIfAbsent(
                topic + "|" + keyId,
                ignored -> Counter.builder(PRODUCER_RECORDS)
                        .description("Producer messages applied after their signature verified, by signer key id")
                        .tag("topic", topic)
                        .tag("key_id", keyId)
                        .register(registry));
    }

    // --- usage records and both consumers

    public void usageRecords(int count) {
        usageRecords.increment(count);
    }

    /**
     * @param reason {@code signature}, {@code unparsable}, {@code unstorable}, {@code database_rejected} or {@code
     *     retries_exhausted}
     */
    public void usageDeadLettered(String reason) {
        usageDeadLettered.computeIfAbsent(reason, this::usageDeadLetters).increment();
    }

    private Counter usageDeadLetters(String reason) {
        return Counter.builder(USAGE_DEAD_LETTERED)
                .description("Usage records sent to the dead-letter topic")
                .tag("reason", reason)
                .register(registry);
    }

    /**
     * A usage message stamped at {@code stampedMillis} (its Kafka create time, the gateway's clock)
     * was taken up at {@code nowMillis}; as {@link #delivered}, an unstamped message is not timed.
     */
    public void usageDelivered(long stampedMillis, long nowMillis) {
        long age = RecordAge.millis(stampedMillis, nowMillis);
        if (age != RecordAge.UNSTAMPED) {
            usageDelivery.record(age, TimeUnit.MILLISECONDS);
        }
    }

    // --- official accounts

    /** One refresh of an official account's access token ended. */
    public void oauthRefreshed(RefreshResult result) {
        oauthRefreshes.get(result).increment();
    }

    /** An authorized account's access token ran out before a refresh succeeded. */
    public void oauthExpired() {
        oauthExpired.increment();
    }

    /** @param topic the consumer's channel: {@code outcomes} or {@code usage} */
    public void sanitised(String topic) {
        sanitised
                .computeIfAbsent(
                        topic,
                        tag -> Counter.builder(RECORDS_SANITISED)
                                .description("Records stored after their unstorable text was replaced")
                                .tag("topic", tag)
                                .register(registry))
                .increment();
    }

    // --- the outbox relay

    /** Registers the two outbox gauges, read from the relay at each scrape. */
    public void outboxGauges(LongSupplier pendingRows, LongSupplier failedRows) {
        Gauge.builder(OUTBOX_SIZE, pendingRows, LongSupplier::getAsLong)
                .description("Rows waiting in state_outbox after the last relay round")
                // a method reference is held by nothing else: a weak reference would let it go
                .strongReference(true)
                .register(registry);
        Gauge.builder(OUTBOX_FAILED_ROWS, failedRows, LongSupplier::getAsLong)
                .description("Rows in state_outbox marked failed (never publishable), after the last relay round")
                .strongReference(true)
                .register(registry);
    }

    /** A row acknowledged by the broker, {@code sinceCommit} after the commit that queued it. */
    public void outboxPublished(Duration sinceCommit) {
        outboxPublished.increment();
        outboxLag.record(sinceCommit.isNegative() ? Duration.ZERO : sinceCommit);
    }

    /** A send the broker did not acknowledge; the row is kept for a later round. */
    public void outboxSendFailed() {
        outboxSendFailures.increment();
    }

    /** A row that can never be published, marked failed. */
    public void outboxDeadLettered() {
        outboxDeadLettered.increment();
    }

    // --- webhooks

    /** One webhook delivery attempt ended. */
    public void webhookDelivery(WebhookOutcome outcome) {
        webhookDeliveries.get(outcome).increment();
    }

    /** Registers the gauge of pending webhook deliveries, as counted by this replica's last poll. */
    public void webhookPendingGauge(LongSupplier pending) {
        Gauge.builder(WEBHOOK_PENDING, pending, LongSupplier::getAsLong)
                .description("Webhook deliveries pending (due or waiting for a retry), at this replica's last poll")
                .strongReference(true)
                .register(registry);
    }

    /** Registers the usage consumer's pause gauge: 1 while paused, read at each scrape. */
    public void usagePausedGauge(LongSupplier paused) {
        Gauge.builder(USAGE_PAUSED, paused, LongSupplier::getAsLong)
                .description(
                        "1 while the usage consumer is paused on a passing database failure; records wait in Kafka")
                .strongReference(true)
                .register(registry);
    }
}
