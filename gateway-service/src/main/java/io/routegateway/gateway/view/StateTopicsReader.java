package io.routegateway.gateway.view;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.StartupEvent;
import io.routegateway.common.time.RecordAge;
import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateVerifier;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.select.PoolView;
import io.routegateway.gateway.config.GatewayConfig;
import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.jboss.logging.Logger;

/**
 * Builds and follows the pool view from the compacted state topics ({@link
 * Topics#CREDENTIAL_STATE}, {@link Topics#ACCESS_KEYS}, {@link Topics#GROUPS}), the runtime
 * settings from {@link Topics#SETTINGS} (held by {@link PoolViewHolder#settings()}), and the teams
 * and spend admission reads from {@link Topics#TEAMS} and {@link Topics#SPEND} (held by {@link
 * LimitsView}).
 *
 * <p>Every replica needs the <em>whole</em> of each topic from its beginning on every start, so this
 * is a plain consumer with all partitions assigned (no consumer group, nothing committed), not a
 * group-subscribed messaging channel. At start-up it records the end offsets; {@link #caughtUp()}
 * (the readiness check) turns true once every partition has been read up to them. Afterwards it
 * follows the topics live; partitions added later are picked up every {@code
 * gateway.view.partition-refresh}.
 *
 * <p>Rules: only records signed by state-service are applied ({@link StateVerifier}: the signature
 * headers must verify against a configured public key over topic, key and value; tombstones
 * included), so a producer without state-service's key cannot change routing; anything else is
 * skipped with reason {@value #SIGNATURE}. Versions only move forward (an older or equal version is
 * ignored), a null value (tombstone) removes the entry. A record that cannot be read (not the topic's JSON), names no
 * entry (no key, no id) or cannot be applied to the view is logged, counted in {@code
 * gateway_view_records_skipped_total{topic,reason}} and skipped: one bad record never stops the
 * view, holds readiness down or is read again in a restart loop. A batch that adds or
 * reshapes several credentials rebuilds the view once instead of once per record. If Kafka is
 * unreachable the consumer keeps retrying and the gateway keeps serving from its last view.
 */
@Singleton
public class StateTopicsReader extends AllPartitionsReader {

    static final List<String> TOPICS = List.of(
            Topics.CREDENTIAL_STATE, Topics.ACCESS_KEYS, Topics.GROUPS, Topics.SETTINGS, Topics.TEAMS, Topics.SPEND);
    private static final Logger LOG = Logger.getLogger(StateTopicsReader.class);
    /** The last hop of propagation: a credential snapshot's Kafka timestamp to the view holding it. */
    static final String STATE_DELIVERY = "gateway.view.state.delivery";

    /** The whole way: an outcome's send (the snapshot's {@code outcome_sent_at}) to the view holding its state. */
    static final String OUTCOME_PROPAGATION = "gateway.view.outcome.propagation";

    /** Skip reason: the value is not the topic's JSON snapshot. */
    public static final String UNREADABLE = "unreadable";
    /** Skip reason: the record names no entry (no key on a tombstone, no id in the snapshot). */
    static final String NO_ID = StateFold.NO_ID;
    /** Skip reason: the signature headers are missing, name an unknown key, or do not verify. */
    static final String SIGNATURE = "signature";
    /** Skip reason: the snapshot was read but applying it to the view failed. */
    public static final String UNAPPLICABLE = "unapplicable";

    private final PoolViewHolder holder;
    private final LimitsView limits;
    private final StateVerifier verifier;
    private final Clock clock;
    private final MeterRegistry registry;
    private final Timer stateDelivery;
    private final Timer outcomePropagation;
    private final ConcurrentHashMap<String, Counter> skipCounters = new ConcurrentHashMap<>();
    /** End offsets seen at start: the readiness barrier. Written once by the reader thread. */
    private final ConcurrentHashMap<TopicPartition, Long> startEndOffsets = new ConcurrentHashMap<>();

    private final AtomicLong lag = new AtomicLong(-1);
    private final AtomicLong lastRecordMillis = new AtomicLong(-1);
    private final AtomicLong lastCurrentMillis = new AtomicLong(-1);
    private final AtomicLong skippedRecords = new AtomicLong();
    /** Tells the outcome publisher which credentials' state arrived (null where built by hand). */
    @Inject
    Event<CredentialStateArrived> stateArrived;

    private volatile boolean barrierSet;

    StateTopicsReader(
            PoolViewHolder holder,
            LimitsView limits,
            Clock clock,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            GatewayConfig config,
            StateVerifier verifier,
            MeterRegistry registry) {
        super("gateway-pool-view", TOPICS, kafkaConfig, config.view().partitionRefresh(), "earliest");
        this.holder = holder;
        this.limits = limits;
        this.verifier = verifier;
        this.registry = registry;
        this.stateDelivery = Timer.builder(STATE_DELIVERY)
                .description("From state-service sending a credential snapshot to this replica's view holding it")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.outcomePropagation = Timer.builder(OUTCOME_PROPAGATION)
                .description("From a replica (or recovery-service) sending an outcome to this replica's view holding"
                        + " the credential state it caused")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.clock = clock;
    }

    void onStart(@Observes StartupEvent event) {
        startReading();
    }

    @PreDestroy
    void stop() {
        stopReading();
    }

    /** Whether the view has read every state-topic partition up to the end offsets seen at start. */
    public boolean caughtUp() {
        if (!barrierSet) {
            return false;
        }
        for (Map.Entry<TopicPartition, Long> target : startEndOffsets.entrySet()) {
            // a partition not read yet stands at 0: an empty one has nothing to wait for
            if (Math.max(0, position(target.getKey())) < target.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** The next offset the view will read on a partition, -1 when it does not read it (yet). */
    public long position(String topic, int partition) {
        return position(new TopicPartition(topic, partition));
    }

    /** Records the view is behind the state topics, -1 before the first poll. */
    public long lag() {
        return lag.get();
    }

    /** When the last state record was applied, -1 before any. */
    public long lastRecordMillis() {
        return lastRecordMillis.get();
    }

    /**
     * When the view was last known to be current (a poll found nothing left to read), -1 before
     * that: how stale the view may be while Kafka is unreachable.
     */
    public long lastCurrentMillis() {
        return lastCurrentMillis.get();
    }

    /** Records skipped (unsigned, unreadable or not applicable), over all topics and reasons. */
    public long skippedRecords() {
        return skippedRecords.get();
    }

    /** End offsets at the first look: readiness waits for them (absent topics have nothing to wait for). */
    @Override
    protected void discovered(KafkaConsumer<String, String> kafka, Set<TopicPartition> all) {
        if (!barrierSet) {
            startEndOffsets.putAll(kafka.endOffsets(all, Duration.ofSeconds(10)));
            barrierSet = true;
        }
    }

    /** Every state topic is read from its beginning: the view is the whole of it. */
    @Override
    protected void startNew(KafkaConsumer<String, String> kafka, Set<TopicPartition> added, boolean firstLook) {
        kafka.seekToBeginning(added);
    }

    @Override
    protected void polled(KafkaConsumer<String, String> kafka, Set<TopicPartition> assigned) {
        long behind = 0;
        for (TopicPartition partition : assigned) {
            behind += Math.max(0, kafka.currentLag(partition).orElse(0L));
        }
        lag.set(behind);
        if (behind == 0) {
            lastCurrentMillis.set(clock.millis());
        }
    }

    @Override
    protected void apply(ConsumerRecords<String, String> records) {
        StateFold.Batch batch = new StateFold.Batch();
        long[] snapshotStamps = new long[records.count()];
        int stamped = 0;
        Set<String> newSnapshots = new LinkedHashSet<>();
        for (ConsumerRecord<String, String> record : records) {
            StateVerifier.Result signature = verifier.verify(
                    record.topic(),
                    record.key(),
                    record.value(),
                    header(record, StateSignature.KEY_ID_HEADER),
                    header(record, StateSignature.SIGNATURE_HEADER));
            if (signature != StateVerifier.Result.VALID) {
                skip(
                        record.topic(),
                        SIGNATURE,
                        where(record) + ": " + signature.name().toLowerCase(Locale.ROOT));
                continue;
            }
            String problem;
            try {
                problem = StateFold.read(batch, record.topic(), record.key(), record.value());
            } catch (Exception e) {
                skip(
                        record.topic(),
                        UNREADABLE,
                        where(record) + ": " + e.getClass().getSimpleName());
                continue;
            }
            if (problem != null) {
                skip(record.topic(), problem, where(record));
            } else if (isNewSnapshot(record)) {
                snapshotStamps[stamped++] = record.timestamp();
                newSnapshots.add(record.key());
            }
        }
        RuntimeSettingsSnapshot settings = batch.newestSettings();
        if (settings != null) {
            applySettings(settings);
        }
        applyLimits(batch);
        try {
            holder.update(view -> StateFold.applied(view, batch));
        } catch (RuntimeException batchFailed) {
            // one change in the batch does not apply: apply them one by one and skip the failing ones
            applyOneByOne(batch);
        }
        if (stateArrived != null && !batch.credentials().isEmpty()) {
            stateArrived.fire(new CredentialStateArrived(batch.credentials().keySet()));
        }
        lastRecordMillis.set(clock.millis());
        long now = clock.millis();
        for (int i = 0; i < stamped; i++) {
            stateDelivery.record(RecordAge.millis(snapshotStamps[i], now), TimeUnit.MILLISECONDS);
        }
        for (String credentialId : newSnapshots) {
            // the newest snapshot of the batch: an outcome it supersedes within the batch is not timed
            CredentialSnapshot snapshot = batch.credentials().get(credentialId);
            if (snapshot != null && snapshot.outcomeSentAt() != null) {
                outcomePropagation.record(
                        RecordAge.millis(snapshot.outcomeSentAt().toEpochMilli(), now), TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * A credential snapshot sent since this replica started: the replay of the topic up to the end
     * offsets seen at start says nothing about propagation, so it is not timed.
     */
    private boolean isNewSnapshot(ConsumerRecord<String, String> record) {
        if (record.value() == null || record.timestamp() < 0 || !Topics.CREDENTIAL_STATE.equals(record.topic())) {
            return false;
        }
        Long endAtStart = startEndOffsets.get(new TopicPartition(record.topic(), record.partition()));
        return endAtStart == null || record.offset() >= endAtStart;
    }

    private void applySettings(RuntimeSettingsSnapshot settings) {
        try {
            if (holder.updateSettings(settings)) {
                LOG.infof(
                        "Runtime settings version %d: blacklist threshold %d, affinity TTL %d s, capacity %d",
                        settings.version(),
                        settings.blacklistThreshold(),
                        settings.affinityTtlSeconds(),
                        settings.affinityCapacity());
            }
        } catch (RuntimeException e) {
            skip(
                    Topics.SETTINGS,
                    UNAPPLICABLE,
                    "version " + settings.version() + ": " + e.getClass().getSimpleName());
        }
    }

    /** Teams and spend, in record order: each entry moves only to a higher version. */
    private void applyLimits(StateFold.Batch batch) {
        for (Object change : batch.others()) {
            if (StateFold.isLimits(change)) {
                try {
                    limits.apply(change);
                } catch (RuntimeException e) {
                    skip(StateFold.topicOf(change), UNAPPLICABLE, e.getClass().getSimpleName());
                }
            }
        }
    }

    private void applyOneByOne(StateFold.Batch batch) {
        for (Object change : batch.others()) {
            applyOne(StateFold.topicOf(change), view -> StateFold.appliedOther(view, change));
        }
        for (String removed : batch.removedCredentials()) {
            applyOne(Topics.CREDENTIAL_STATE, view -> StateFold.applied(view, Map.of(), Set.of(removed), List.of()));
        }
        for (CredentialSnapshot snapshot : batch.credentials().values()) {
            applyOne(
                    Topics.CREDENTIAL_STATE,
                    view -> StateFold.applied(view, Map.of(snapshot.credentialId(), snapshot), Set.of(), List.of()));
        }
    }

    private void applyOne(String topic, UnaryOperator<PoolView> change) {
        try {
            holder.update(change);
        } catch (RuntimeException e) {
            skip(topic, UNAPPLICABLE, e.getClass().getSimpleName());
        }
    }

    /** Counts and logs a skipped record; {@code detail} names where it was, never its content. */
    public void skip(String topic, String reason, String detail) {
        skippedRecords.incrementAndGet();
        skipCounters
                .computeIfAbsent(
                        topic + '|' + reason,
                        ignored -> Counter.builder("gateway.view.records.skipped")
                                .description(
                                        "State-topic records skipped: not validly signed, unreadable, or not applicable to the view")
                                .tag("topic", topic)
                                .tag("reason", reason)
                                .register(registry))
                .increment();
        LOG.warnf("Skipped a %s record (%s): %s", topic, reason, detail);
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The time of the last applied state record, for the view-age metric. */
    public Instant lastRecordAt() {
        long millis = lastRecordMillis.get();
        return millis < 0 ? null : Instant.ofEpochMilli(millis);
    }
}
