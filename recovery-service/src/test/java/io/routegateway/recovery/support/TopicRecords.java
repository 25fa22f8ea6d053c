package io.routegateway.recovery.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateVerifier;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.testsupport.ProducerSigning;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Reads {@code route.outcomes} and {@code route.usage} from the real broker in the background, as
 * state-service would, checks each record's producer signature as state-service does and parses them
 * with the wire schema.
 */
public final class TopicRecords implements AutoCloseable {

    /** state-service's check, with recovery-service's %test public key alone. */
    private static final StateVerifier RECOVERY_KEY = StateVerifier.fromSpec(
            StateSignature.Domain.PRODUCER,
            ProducerSigning.RECOVERY_KEY_ID + "=" + ProducerSigning.RECOVERY_PUBLIC_KEY);

    private final KafkaConsumer<String, String> consumer;
    private final List<ConsumerRecord<String, String>> records = new CopyOnWriteArrayList<>();
    private final Thread poller;
    private volatile boolean running = true;

    private TopicRecords(String bootstrap) {
        createTopics(bootstrap);
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, "recovery-tests-" + UUID.randomUUID());
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumer = new KafkaConsumer<>(properties);
        consumer.subscribe(List.of(Topics.OUTCOMES, Topics.USAGE));
        poller = new Thread(this::poll, "topic-records");
        poller.setDaemon(true);
        poller.start();
    }

    /** Starts reading both topics from their beginning. */
    public static TopicRecords start() {
        return new TopicRecords(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    private static void createTopics(String bootstrap) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            for (String topic : List.of(Topics.OUTCOMES, Topics.USAGE)) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
                            .all()
                            .get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void poll() {
        try {
            while (running) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** Every outcome event published for this credential so far, in order. */
    public List<CredentialEvent> outcomes(String credentialId) {
        return parsed(Topics.OUTCOMES, credentialId, CredentialEvent.class);
    }

    /** Every usage record published for this credential so far, in order. */
    public List<RequestCompleted> usage(String credentialId) {
        return parsed(Topics.USAGE, credentialId, RequestCompleted.class);
    }

    /** The raw payloads for this credential on both topics. */
    public List<String> payloads(String credentialId) {
        return records.stream()
                .filter(record -> credentialId.equals(record.key()))
                .map(ConsumerRecord::value)
                .toList();
    }

    private <T> List<T> parsed(String topic, String key, Class<T> type) {
        return records.stream()
                .filter(record -> topic.equals(record.topic()) && key.equals(record.key()))
                .peek(TopicRecords::assertSignedByRecovery)
                .map(record -> read(record.value(), type))
                .toList();
    }

    /**
     * state-service applies only what a producer key signed: every record recovery-service sends
     * verifies under its own %test public key (and only that one), over its topic, key and value.
     */
    private static void assertSignedByRecovery(ConsumerRecord<String, String> record) {
        StateVerifier.Result result = RECOVERY_KEY.verify(
                record.topic(),
                record.key(),
                record.value(),
                header(record, StateSignature.KEY_ID_HEADER),
                header(record, StateSignature.SIGNATURE_HEADER));
        if (result != StateVerifier.Result.VALID) {
            throw new AssertionError("not signed with recovery-service's producer key (" + result + "): " + record);
        }
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static <T> T read(String json, Class<T> type) {
        try {
            return Json.MAPPER.readValue(json, type);
        } catch (Exception e) {
            throw new AssertionError("not a valid " + type.getSimpleName() + ": " + json, e);
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            poller.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
