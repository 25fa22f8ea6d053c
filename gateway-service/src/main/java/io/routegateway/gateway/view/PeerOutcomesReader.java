package io.routegateway.gateway.view;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
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
public class PeerOutcomesReader extends AllPartitionsReader {

    private static final Logger LOG = Logger.getLogger(PeerOutcomesReader.class);

    /** From a peer's send of an outcome to this replica's view holding its effect. */
    static final String PEER_OUTCOME_DELAY = "gateway.view.peer.outcome.delay";

    private final LocalOutcomes outcomes;
    private final ReplicaIdentity replica;
    private final StateTopicsReader stateReader;
    private final Clock clock;
    private final boolean enabled;
    private final Timer delay;
    private final Counter applied;

    /** Tells the outcome publisher which credentials' state changed by a peer's outcome. */
    @Inject
    Event<CredentialStateArrived> stateArrived;

    PeerOutcomesReader(
            LocalOutcomes outcomes,
            ReplicaIdentity replica,
            StateTopicsReader stateReader,
            Clock clock,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig,
            GatewayConfig config,
            MeterRegistry registry) {
        super(
                "gateway-peer-outcomes",
                List.of(Topics.OUTCOMES),
                kafkaConfig,
                config.view().partitionRefresh(),
                "latest");
        this.outcomes = outcomes;
        this.replica = replica;
        this.stateReader = stateReader;
        this.clock = clock;
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
        startReading();
    }

    @PreDestroy
    void stop() {
        stopReading();
    }

    /** The next offset the reader will read on a partition of the outcomes topic, -1 when it does not read it (yet). */
    public long position(int partition) {
        return position(new TopicPartition(Topics.OUTCOMES, partition));
    }

    /** Whether the reader has taken its first look at the topic (for tests). */
    public boolean started() {
        return looked();
    }

    /**
     * Partitions found at the first look are read from their end (what came before is in the state
     * topics), partitions (or the topic) that appear later from their beginning (all of it is new).
     */
    @Override
    protected void startNew(KafkaConsumer<String, String> kafka, Set<TopicPartition> added, boolean firstLook) {
        if (firstLook) {
            kafka.seekToEnd(added);
        } else {
            kafka.seekToBeginning(added);
        }
        remember(kafka, added);
    }

    @Override
    protected void apply(ConsumerRecords<String, String> records) {
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
}
