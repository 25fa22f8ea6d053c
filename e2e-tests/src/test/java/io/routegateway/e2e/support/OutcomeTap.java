package io.routegateway.e2e.support;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.event.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code route.outcomes} as an independent observer (all partitions assigned, no consumer
 * group): what the gateways and recovery-service produced, to compare with what state-service applied.
 */
public final class OutcomeTap {

    /**
     * One produced outcome message.
     *
     * @param resetsAt a quota event's reported reset ({@code resets_at}), null when it has none
     */
    public record Outcome(
            String credentialId,
            UUID eventId,
            String type,
            String modelKey,
            int partition,
            long offset,
            Instant resetsAt) {}

    private final String bootstrapServers;

    OutcomeTap(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** The current end offset of every partition: a mark to read from later. */
    public Map<TopicPartition, Long> mark() {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer);
            return new HashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(30)));
        }
    }

    /** Every outcome from {@code from} (null = the beginning) up to the current end, in partition order. */
    public List<Outcome> readSince(Map<TopicPartition, Long> from) {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            consumer.assign(partitions);
            for (TopicPartition partition : partitions) {
                long start = from == null ? 0 : from.getOrDefault(partition, 0L);
                consumer.seek(partition, start);
            }
            List<Outcome> outcomes = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!reached(consumer, partitions, end)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read route.outcomes up to " + end);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                        outcomes.add(parse(record));
                    }
                }
            }
            return outcomes;
        }
    }

    /** The outcomes since {@code from} that concern the given credentials. */
    public List<Outcome> readSince(Map<TopicPartition, Long> from, Collection<String> credentialIds) {
        return readSince(from).stream()
                .filter(outcome -> credentialIds.contains(outcome.credentialId()))
                .toList();
    }

    private static boolean reached(
            KafkaConsumer<String, String> consumer, List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition) < end.get(partition)) {
                return false;
            }
        }
        return true;
    }

    private static Outcome parse(ConsumerRecord<String, String> record) {
        try {
            JsonNode event = Http.JSON.readTree(record.value());
            return new Outcome(
                    record.key(),
                    UUID.fromString(event.path("event_id").asText()),
                    event.path("type").asText(),
                    event.path("model_key").isTextual()
                            ? event.path("model_key").asText()
                            : null,
                    record.partition(),
                    record.offset(),
                    event.path("resets_at").isTextual()
                            ? Instant.parse(event.path("resets_at").asText())
                            : null);
        } catch (IOException | IllegalArgumentException e) {
            throw new AssertionError("unreadable outcome at offset " + record.offset() + ": " + e.getMessage(), e);
        }
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, String> consumer) {
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(Topics.OUTCOMES, Duration.ofSeconds(30))
                .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
        return partitions;
    }

    private KafkaConsumer<String, String> consumer() {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG,
                        true,
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        "e2e-outcome-tap"),
                new StringDeserializer(),
                new StringDeserializer());
    }
}
