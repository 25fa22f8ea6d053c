package io.routegateway.gateway.view;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

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
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.InboundScreen;
import io.routegateway.core.event.InboundScreen.Screened;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.gateway.config.GatewayConfig;
import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * Follows {@link Topics#OUTCOMES} and applies the failures its peers (other replicas,
 * recovery-service) record to this replica's view ({@link LocalOutcomes}, {@link
 * io.routegateway.core.select.ViewOutcomes}), so a credential or model that failed at one replica is
 * avoided by every replica one Kafka hop later, not after state-service's transaction and a
 * second hop through the state topic. State-service stays the authority: its next snapshot (a
 * higher version) replaces whatever was applied here, and a record the held snapshot already
 * reflects ({@code outcome_position}) is skipped, so nothing is counted twice.
 *
 * <p>Like the state topics, this is a plain consumer with every partition assigned and nothing
 * committed: each replica needs every record, not a share of them. It starts at the end: what was
 * published before this replica started is already in the state topics it replays. Records carrying
 * this replica's own origin ({@link ReplicaIdentity}) are skipped: it applied them before
 * publishing. A record that cannot be read or is refused by the inbound screen is counted in {@code
 * gateway_view_records_skipped_total{topic="route.outcomes"}} and skipped; one bad record never stops
 * the reader. Off with {@code gateway.view.peer-outcomes=false}: then the view learns of peers'
 * outcomes from the state topic only.
 */
@Singleton
public class PeerOutcomesReader {

    private static final Logger LOG = Logger.getLogger(PeerOutcomesReader.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration UNTIL_TOPIC_EXISTS = Duration.ofSeconds(1);

    /** From a peer's send of an outcome to this replica's view holding its effect. */
    static final String PEER_OUTCOME_DELAY = "gateway.view.peer.outcome.delay";

    private final LocalOutcomes outcomes;
    private final ReplicaIdentity replica;
    private final StateTopicsReader stateReader;
    private final Clock clock;
    private final Map<String, Object> kafkaConfig;
    private final Duration partitionRefresh;
    private final boolean enabled;
    private final Timer delay;
    private final Counter applied;
    /** Next offset to read per partition, as the reader thread advances. */
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();

    /** Tells the outcome publisher which credentials' state changed by a peer's outcome. */
    @Inject
    Event<CredentialStateArrived> stateArrived;

    private volatile boolean running;
    private volatile KafkaConsumer<String, String> consumer;
    /** Set once the first look at the topic is done: partitions found after it are new. */
    private volatile boolean started;

    private Thread thread;

    PeerOutcomesReader(
            LocalOutcomes outcomes,
            ReplicaIdentity replica,
            StateTopicsReader stateReader,
            Clock clock,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            GatewayConfig config,
            MeterRegistry registry) {
        this.outcomes = outcomes;
        this.replica = replica;
        this.stateReader = stateReader;
        this.clock = clock;
        this.kafkaConfig = kafkaConfig;
        this.partitionRefresh = config.view().partitionRefresh();
        this.enabled = config.view().peerOutcomes();
        this.delay = Timer.builder(PEER_OUTCOME_DELAY)
                .description("From a peer replica (or recovery-service) sending an outcome to this replica's view"
                        + " holding its effect")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.applied = Counter.builder("gateway.view.peer.outcomes.applied")
                .description("Peers' outcomes that changed this replica's view before state-service's snapshot")
                .register(registry);
    }

    void onStart(@Observes StartupEvent event) {
        if (!enabled) {
            LOG.info("Peers' outcomes are not read (gateway.view.peer-outcomes=false)");
            return;
        }
        running = true;
        thread = new Thread(this::run, "peer-outcomes-reader");
        thread.setDaemon(true);
        thread.start();
    }

    @PreDestroy
    void stop() {
        running = false;
        KafkaConsumer<String, String> active = consumer;
        if (active != null) {
            active.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The next offset the reader will read on a partition of the outcomes topic, -1 when it does not read it (yet). */
    public long position(int partition) {
        return positions.getOrDefault(new TopicPartition(Topics.OUTCOMES, partition), -1L);
    }

    /** Whether the reader has taken its first look at the topic (for tests). */
    public boolean started() {
        return started;
    }

    private void run() {
        while (running) {
            try (KafkaConsumer<String, String> kafka = newConsumer()) {
                consumer = kafka;
                follow(kafka);
            } catch (WakeupException e) {
                // stopping
            } catch (RuntimeException e) {
                LOG.warnf("Peer outcomes reader failed (%s); retrying", e.toString());
                sleep(Duration.ofSeconds(1));
            } finally {
                consumer = null;
            }
        }
    }

    private KafkaConsumer<String, String> newConsumer() {
        Map<String, Object> config = new HashMap<>(kafkaConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "gateway-peer-outcomes");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    private void follow(KafkaConsumer<String, String> kafka) {
        Set<TopicPartition> assigned = new HashSet<>();
        long nextDiscovery = 0;
        while (running) {
            long nowMillis = System.currentTimeMillis();
            if (nowMillis >= nextDiscovery) {
                assign(kafka, assigned);
                // the topic appears with the first outcome any replica publishes: look again soon
                nextDiscovery = nowMillis + (assigned.isEmpty() ? UNTIL_TOPIC_EXISTS : partitionRefresh).toMillis();
            }
            if (assigned.isEmpty()) {
                sleep(POLL);
                continue;
            }
            ConsumerRecords<String, String> records = kafka.poll(POLL);
            if (!records.isEmpty()) {
                apply(records);
            }
            for (TopicPartition partition : assigned) {
                positions.put(partition, kafka.position(partition));
            }
        }
    }

    /**
     * Assigns every partition of the outcomes topic: those found at the first look are read from
     * their end (what came before is in the state topics), partitions (or the topic) that appear
     * later from their beginning (all of it is new), and after a reconnect each resumes where it was.
     */
    private void assign(KafkaConsumer<String, String> kafka, Set<TopicPartition> assigned) {
        Set<TopicPartition> all = new HashSet<>();
        List<PartitionInfo> partitions = kafka.partitionsFor(Topics.OUTCOMES, Duration.ofSeconds(10));
        if (partitions != null) {
            for (PartitionInfo info : partitions) {
                all.add(new TopicPartition(info.topic(), info.partition()));
            }
        }
        if (all.equals(assigned)) {
            started = true;
            return;
        }
        kafka.assign(all);
        Set<TopicPartition> fresh = new HashSet<>();
        for (TopicPartition partition : all) {
            Long position = positions.get(partition);
            if (position != null) {
                kafka.seek(partition, position);
            } else if (started) {
                kafka.seekToBeginning(List.of(partition));
            } else {
                fresh.add(partition);
            }
        }
        if (!fresh.isEmpty()) {
            kafka.seekToEnd(fresh);
            for (TopicPartition partition : fresh) {
                positions.put(partition, kafka.position(partition));
            }
        }
        assigned.clear();
        assigned.addAll(all);
        started = true;
        LOG.infof("Peer outcomes reader follows %d partitions of %s", all.size(), Topics.OUTCOMES);
    }

    private void apply(ConsumerRecords<String, String> records) {
        Set<String> changed = new LinkedHashSet<>();
        for (ConsumerRecord<String, String> record : records) {
            Header origin = record.headers().lastHeader(Topics.ORIGIN_HEADER);
            if (origin != null && replica.isOwn(origin.value())) {
                continue;
            }
            CredentialEvent event;
            try {
                event = Json.MAPPER.readValue(record.value(), CredentialEvent.class);
            } catch (Exception e) {
                stateReader.skip(
                        Topics.OUTCOMES,
                        StateTopicsReader.UNREADABLE,
                        where(record) + ": " + e.getClass().getSimpleName());
                continue;
            }
            if (event == null
                    || !(InboundScreen.outcome(event) instanceof Screened.Accepted<CredentialEvent> accepted)) {
                stateReader.skip(
                        Topics.OUTCOMES,
                        StateTopicsReader.UNAPPLICABLE,
                        where(record) + ": refused by the inbound screen");
                continue;
            }
            try {
                if (outcomes.apply(accepted.value(), new OutcomePosition(record.partition(), record.offset()))) {
                    applied.increment();
                    changed.add(event.credentialId());
                    if (record.timestamp() >= 0) {
                        delay.record(RecordAge.millis(record.timestamp(), clock.millis()), TimeUnit.MILLISECONDS);
                    }
                }
            } catch (RuntimeException e) {
                stateReader.skip(
                        Topics.OUTCOMES,
                        StateTopicsReader.UNAPPLICABLE,
                        where(record) + ": " + e.getClass().getSimpleName());
            }
        }
        if (stateArrived != null && !changed.isEmpty()) {
            stateArrived.fire(new CredentialStateArrived(changed));
        }
    }

    private static String where(ConsumerRecord<String, String> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
