package io.routegateway.gateway.view;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

/**
 * A plain Kafka consumer on a thread of its own with <em>every</em> partition of its topics assigned:
 * no consumer group, nothing committed, because each replica needs every record, not a share of
 * them. Partitions are looked up again every {@code gateway.view.partition-refresh} (every second
 * while none exists yet); a partition read before (also across a reconnect) resumes where it was, a
 * partition seen for the first time starts where {@link #startNew} puts it. If Kafka is unreachable
 * the reader reconnects every second; it stops when the bean is destroyed.
 */
public abstract class AllPartitionsReader {

    private static final Logger LOG = Logger.getLogger(AllPartitionsReader.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration UNTIL_TOPICS_EXIST = Duration.ofSeconds(1);

    private final String name;
    private final List<String> topics;
    private final Map<String, Object> kafkaConfig;
    private final Duration partitionRefresh;
    private final String whenPositionLost;
    /** Next offset to read per partition, as the reader thread advances. */
    private final ConcurrentHashMap<TopicPartition, Long> positions = new ConcurrentHashMap<>();

    private volatile boolean running;
    private volatile boolean looked;
    private volatile KafkaConsumer<String, String> consumer;
    private Thread thread;

    /**
     * @param name the reader's thread name and Kafka client id
     * @param kafkaConfig the broker connection (its group id, if any, is not used)
     * @param whenPositionLost where a partition whose position the broker no longer holds (retention)
     *     goes on: {@code earliest} or {@code latest}
     */
    protected AllPartitionsReader(
            String name,
            List<String> topics,
            Map<String, Object> kafkaConfig,
            Duration partitionRefresh,
            String whenPositionLost) {
        this.name = name;
        this.whenPositionLost = whenPositionLost;
        this.topics = List.copyOf(topics);
        this.kafkaConfig = kafkaConfig;
        this.partitionRefresh = partitionRefresh;
    }

    /** Applies one poll's records; never throws for one bad record. */
    protected abstract void apply(ConsumerRecords<String, String> records);

    /**
     * Positions partitions seen for the first time, already assigned.
     *
     * @param firstLook whether this is the reader's first look at its topics since it started
     */
    protected abstract void startNew(KafkaConsumer<String, String> kafka, Set<TopicPartition> added, boolean firstLook);

    /** Called with every partition found at each look, before any is assigned. */
    protected void discovered(KafkaConsumer<String, String> kafka, Set<TopicPartition> all) {}

    /** Called after every poll (and every idle wait while no partition exists), positions updated. */
    protected void polled(KafkaConsumer<String, String> kafka, Set<TopicPartition> assigned) {}

    protected final void startReading() {
        running = true;
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    protected final void stopReading() {
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

    /** The next offset to read on a partition, -1 while it is not read (yet). */
    protected final long position(TopicPartition partition) {
        return positions.getOrDefault(partition, -1L);
    }

    /** Whether the reader has taken its first look at its topics. */
    protected final boolean looked() {
        return looked;
    }

    /** Where a record is, for logs: never its content. */
    protected static String where(ConsumerRecord<String, String> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }

    private void run() {
        while (running) {
            try (KafkaConsumer<String, String> kafka = newConsumer()) {
                consumer = kafka;
                follow(kafka);
            } catch (WakeupException e) {
                // stopping
            } catch (RuntimeException e) {
                LOG.warnf("%s failed (%s); reconnecting in 1 s", name, e.toString());
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
        // every partition is positioned explicitly; this only answers a position lost to retention
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, whenPositionLost);
        // state-service creates the topics; a reader must never create them with the broker's defaults
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    private void follow(KafkaConsumer<String, String> kafka) {
        Set<TopicPartition> assigned = new HashSet<>();
        long nextLook = 0;
        while (running) {
            long nowMillis = System.currentTimeMillis();
            if (nowMillis >= nextLook) {
                assign(kafka, assigned);
                nextLook = nowMillis + (assigned.isEmpty() ? UNTIL_TOPICS_EXIST : partitionRefresh).toMillis();
            }
            if (assigned.isEmpty()) {
                sleep(POLL);
            } else {
                ConsumerRecords<String, String> records = kafka.poll(POLL);
                if (!records.isEmpty()) {
                    apply(records);
                }
                for (TopicPartition partition : assigned) {
                    positions.put(partition, kafka.position(partition));
                }
            }
            polled(kafka, assigned);
        }
    }

    private void assign(KafkaConsumer<String, String> kafka, Set<TopicPartition> assigned) {
        Set<TopicPartition> all = new HashSet<>();
        for (String topic : topics) {
            List<PartitionInfo> partitions = kafka.partitionsFor(topic, Duration.ofSeconds(10));
            if (partitions != null) {
                for (PartitionInfo info : partitions) {
                    all.add(new TopicPartition(info.topic(), info.partition()));
                }
            }
        }
        discovered(kafka, all);
        if (all.equals(assigned)) {
            looked = true;
            return;
        }
        kafka.assign(all);
        Set<TopicPartition> added = new HashSet<>();
        for (TopicPartition partition : all) {
            Long position = positions.get(partition);
            if (position != null) {
                kafka.seek(partition, position);
            } else {
                added.add(partition);
            }
        }
        if (!added.isEmpty()) {
            startNew(kafka, added, !looked);
        }
        assigned.clear();
        assigned.addAll(all);
        // set only now: whoever waits for the first look then finds every partition positioned
        looked = true;
        LOG.infof("%s reads %d partitions of %s (%d new)", name, all.size(), topics, added.size());
    }

    /** Records where each partition stands now (after a seek, which the consumer resolves lazily). */
    protected final void remember(KafkaConsumer<String, String> kafka, Set<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            positions.put(partition, kafka.position(partition));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
