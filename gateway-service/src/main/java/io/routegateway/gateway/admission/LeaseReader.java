package io.routegateway.gateway.admission;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.routegateway.core.event.JsonBatch;
import io.routegateway.core.event.LeaseBatch;
import io.routegateway.core.event.LeaseEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.core.limits.Leases;
import io.routegateway.gateway.config.GatewayConfig;
import io.routegateway.gateway.view.AllPartitionsReader;
import io.routegateway.gateway.view.ReplicaIdentity;
import io.routegateway.gateway.view.StateTopicsReader;
import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.jboss.logging.Logger;

/**
 * Reads every partition of {@link Topics#ADMISSIONS} and folds the peers' leases into this
 * replica's {@link LeaseLedger}, so that its counts are the cluster's. Its own records (its {@link
 * ReplicaIdentity} in the origin header) are skipped: they were counted when made.
 *
 * <p>At its start it reads from {@code gateway.admission.lookback} (2 minutes) back ({@code
 * offsetsForTimes}): every lease still open, and every one opened or closed within the minute
 * counted, is among them. Partitions that appear later are read from their beginning. {@link
 * #caughtUp()} (the readiness check) turns true once every partition has been read up to the end
 * offsets seen at the start, and stays true.
 *
 * <p>Its lag is measured in time, not records: every half second it asks the broker for the end
 * offsets; once it has read up to them, it is current as of that question. {@link #lagMillis()} is
 * the time since then, which also grows while the broker cannot be reached. Above {@code
 * gateway.admission.max-lag} admission is unshared ({@link LeaseLedger#unshared}).
 *
 * <p>A record that cannot be read, or that a hostile producer made implausible (no id, a negative
 * reservation, an expiry past a lease term from now), is counted in {@code
 * gateway_view_records_skipped_total{topic="route.admissions"}} and skipped.
 */
@Singleton
public class LeaseReader extends AllPartitionsReader {

    private static final Logger LOG = Logger.getLogger(LeaseReader.class);
    private static final long LAG_CHECK_MILLIS = 500;

    private final LeaseLedger ledger;
    private final ReplicaIdentity replica;
    private final StateTopicsReader skips;
    private final Map<String, Object> kafkaConfig;
    private final Clock clock;
    private final Duration lookback;
    private final Duration retention;
    private final long leaseTtlMillis;

    /** End offsets seen at the first look: the readiness barrier. */
    private final ConcurrentHashMap<TopicPartition, Long> startEndOffsets = new ConcurrentHashMap<>();

    private volatile boolean barrierSet;
    private volatile boolean caughtUpOnce;
    /** Wall-clock time the reader was last known to have read everything there was; -1 before. */
    private volatile long currentAsOfMillis = -1;

    /** Reader thread only: end offsets asked at {@link #targetAskedMillis}, not yet read up to. */
    private Map<TopicPartition, Long> target;

    private long targetAskedMillis;
    private long nextLagCheckMillis;

    LeaseReader(
            LeaseLedger ledger,
            ReplicaIdentity replica,
            StateTopicsReader skips,
            Clock clock,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            GatewayConfig config,
            MeterRegistry registry) {
        super(
                "gateway-admissions",
                List.of(Topics.ADMISSIONS),
                kafkaConfig,
                config.view().partitionRefresh(),
                "latest");
        this.ledger = ledger;
        this.replica = replica;
        this.skips = skips;
        this.kafkaConfig = kafkaConfig;
        this.clock = clock;
        this.lookback = config.admission().lookback();
        this.retention = config.admission().topicRetention();
        this.leaseTtlMillis = config.admission().leaseTtl().toMillis();
        Gauge.builder("gateway.admission.lag.seconds", this, reader -> reader.lagMillis() / 1000.0)
                .description("Seconds since this replica last read every lease its peers had published"
                        + " (-0.001 before the first time)")
                .register(registry);
    }

    void onStart(@Observes StartupEvent event) {
        // the topic is made (if absent and allowed) on a thread of its own: Kafka may be away at start
        Thread starter = new Thread(
                () -> {
                    AdmissionsTopic.ensure(kafkaConfig, retention);
                    startReading();
                },
                "gateway-admissions-start");
        starter.setDaemon(true);
        starter.start();
    }

    @PreDestroy
    void stop() {
        stopReading();
    }

    /** Whether the reader has once read every partition up to the end offsets seen at its start. */
    public boolean caughtUp() {
        if (caughtUpOnce) {
            return true;
        }
        if (!barrierSet || !looked()) {
            return false;
        }
        for (Map.Entry<TopicPartition, Long> end : startEndOffsets.entrySet()) {
            if (Math.max(0, position(end.getKey())) < end.getValue()) {
                return false;
            }
        }
        caughtUpOnce = true;
        return true;
    }

    /** Milliseconds since the reader was last current with the topic; -1 before it ever was. */
    public long lagMillis() {
        long asOf = currentAsOfMillis;
        return asOf < 0 ? -1 : Math.max(0, System.currentTimeMillis() - asOf);
    }

    @Override
    protected void discovered(KafkaConsumer<String, String> kafka, Set<TopicPartition> all) {
        if (!barrierSet) {
            startEndOffsets.putAll(kafka.endOffsets(all, Duration.ofSeconds(10)));
            barrierSet = true;
        }
    }

    /**
     * At the first look every partition starts at the first record of the lookback (its end when
     * nothing is that recent); a partition added later starts at its beginning.
     */
    @Override
    protected void startNew(KafkaConsumer<String, String> kafka, Set<TopicPartition> added, boolean firstLook) {
        if (!firstLook) {
            kafka.seekToBeginning(added);
            remember(kafka, added);
            return;
        }
        long since = System.currentTimeMillis() - lookback.toMillis();
        Map<TopicPartition, Long> times = new HashMap<>();
        for (TopicPartition partition : added) {
            times.put(partition, since);
        }
        Map<TopicPartition, OffsetAndTimestamp> offsets = kafka.offsetsForTimes(times, Duration.ofSeconds(10));
        for (TopicPartition partition : added) {
            OffsetAndTimestamp offset = offsets.get(partition);
            if (offset == null) {
                kafka.seekToEnd(List.of(partition));
            } else {
                kafka.seek(partition, offset.offset());
            }
        }
        remember(kafka, added);
    }

    /** The time lag: asks for the end offsets now and then, and notes when they were read up to. */
    @Override
    protected void polled(KafkaConsumer<String, String> kafka, Set<TopicPartition> assigned) {
        long now = System.currentTimeMillis();
        if (target != null && readUpTo(target)) {
            currentAsOfMillis = targetAskedMillis;
            target = null;
        }
        if (target != null || now < nextLagCheckMillis) {
            return;
        }
        nextLagCheckMillis = now + LAG_CHECK_MILLIS;
        if (assigned.isEmpty()) {
            // no partition yet (the topic is being created): nothing to wait for
            currentAsOfMillis = now;
            return;
        }
        try {
            Map<TopicPartition, Long> ends = kafka.endOffsets(assigned, Duration.ofSeconds(1));
            targetAskedMillis = now;
            if (readUpTo(ends)) {
                currentAsOfMillis = now;
            } else {
                target = ends;
            }
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            // the broker did not answer: the lag grows until it does
        }
    }

    private boolean readUpTo(Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void apply(ConsumerRecords<String, String> records) {
        // the holders' clocks, like the leases' times (the lag above is the broker's and this host's)
        long now = clock.millis();
        for (ConsumerRecord<String, String> record : records) {
            Header origin = record.headers().lastHeader(Topics.ORIGIN_HEADER);
            if (origin != null && replica.isOwn(origin.value())) {
                continue;
            }
            // one lease or a replica's batch of them; each entry stands on its own
            for (JsonBatch.Entry<LeaseEvent> entry : LeaseBatch.decode(record.value())) {
                if (entry.refused()) {
                    skips.skip(Topics.ADMISSIONS, StateTopicsReader.UNREADABLE, where(record) + ": " + entry.refusal());
                    continue;
                }
                LeaseEvent plausible = Leases.plausible(entry.value(), now, leaseTtlMillis);
                if (plausible == null) {
                    skips.skip(
                            Topics.ADMISSIONS, StateTopicsReader.UNAPPLICABLE, where(record) + ": implausible lease");
                    continue;
                }
                try {
                    ledger.peer(plausible);
                } catch (RuntimeException e) {
                    LOG.debugf(e, "Lease %s not applied", where(record));
                    skips.skip(
                            Topics.ADMISSIONS,
                            StateTopicsReader.UNAPPLICABLE,
                            where(record) + ": " + e.getClass().getSimpleName());
                }
            }
        }
    }
}
