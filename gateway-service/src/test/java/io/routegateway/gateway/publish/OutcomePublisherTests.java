package io.routegateway.gateway.publish;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An event sent through the emitter arrives on {@code route.outcomes} of the real broker, keyed. */
@QuarkusTest
class OutcomePublisherTests {

    private static final String OUTCOMES_TOPIC = "route.outcomes";

    @Inject
    OutcomePublisher publisher;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @Test
    void publishedEventReachesTheTopicKeyedByCredential() {
        String credentialId = "cred-" + UUID.randomUUID();
        String event = "{\"type\":\"smoke.v1\",\"credentialId\":\"" + credentialId + "\"}";

        publisher.publish(credentialId, event).await().atMost(Duration.ofSeconds(60));

        ConsumerRecord<String, String> received = consumeFirst(credentialId, Duration.ofSeconds(60));
        assertThat(received).as("record with key %s", credentialId).isNotNull();
        assertThat(received.value()).isEqualTo(event);
    }

    private ConsumerRecord<String, String> consumeFirst(String key, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                "smoke-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(OUTCOMES_TOPIC));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (key.equals(record.key())) {
                        return record;
                    }
                }
            }
            return null;
        }
    }
}
