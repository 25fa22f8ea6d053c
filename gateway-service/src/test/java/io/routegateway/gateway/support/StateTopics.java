package io.routegateway.gateway.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Feeds the real state topics and reads the real outcome and usage topics of the test broker. What
 * it publishes is signed as state-service signs it, with the %test key pair, unless a test sends a
 * {@link #forged} record.
 */
public final class StateTopics implements AutoCloseable {

    /** The private half of the %test pair (state-service's %test profile holds the same). */
    public static final String TEST_SIGNING_KEY = "MC4CAQAwBQYDK2VwBCIEIFVRZTuRtIVA3uSyuHMgFsSnICbjZjkhfMUX/cUfYe1P";

    public static final StateSigner SIGNER = StateSigner.fromBase64Pkcs8("k1", TEST_SIGNING_KEY);

    private final String bootstrap;
    private final KafkaProducer<String, String> producer;

    public StateTopics(String bootstrap) {
        this.bootstrap = bootstrap;
        this.producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(),
                new StringSerializer());
    }

    public RecordMetadata publish(CredentialSnapshot snapshot) {
        return send(Topics.CREDENTIAL_STATE, snapshot.credentialId(), json(snapshot));
    }

    /** A signed snapshot whose Kafka timestamp says state-service sent it at {@code sentAtMillis}. */
    public RecordMetadata publishSentAt(CredentialSnapshot snapshot, long sentAtMillis) {
        return send(Topics.CREDENTIAL_STATE, snapshot.credentialId(), json(snapshot), sentAtMillis);
    }

    public RecordMetadata publish(GroupSnapshot snapshot) {
        return send(Topics.GROUPS, snapshot.groupId(), json(snapshot));
    }

    public RecordMetadata publish(AccessKeySnapshot snapshot) {
        return send(Topics.ACCESS_KEYS, snapshot.accessKeyId(), json(snapshot));
    }

    public RecordMetadata publish(RuntimeSettingsSnapshot snapshot) {
        return send(Topics.SETTINGS, RuntimeSettingsSnapshot.KEY, json(snapshot));
    }

    public RecordMetadata publish(TeamSnapshot snapshot) {
        return send(Topics.TEAMS, snapshot.teamId(), json(snapshot));
    }

    public RecordMetadata publish(SpendSnapshot snapshot) {
        return send(Topics.SPEND, SpendSnapshot.recordKey(snapshot.subject(), snapshot.subjectId()), json(snapshot));
    }

    public RecordMetadata tombstone(String topic, String key) {
        return send(topic, key, null);
    }

    /** Any value, readable or not, signed: as state-service would publish it were its checks bypassed. */
    public RecordMetadata raw(String topic, String key, String value) {
        return send(topic, key, value);
    }

    /**
     * A record as a producer without state-service's key writes it: with the given signature headers
     * (null leaves a header out).
     */
    public RecordMetadata forged(String topic, String key, String value, String keyId, String signature) {
        List<Header> headers = new ArrayList<>();
        if (keyId != null) {
            headers.add(new RecordHeader(StateSignature.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8)));
        }
        if (signature != null) {
            headers.add(new RecordHeader(StateSignature.SIGNATURE_HEADER, signature.getBytes(StandardCharsets.UTF_8)));
        }
        return send(new ProducerRecord<>(topic, null, key, value, headers));
    }

    /** The JSON of a snapshot, as {@link #publish} sends it. */
    public static String json(Object value) {
        try {
            return Json.MAPPER.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private RecordMetadata send(String topic, String key, String value) {
        return send(topic, key, value, null);
    }

    private RecordMetadata send(String topic, String key, String value, Long timestamp) {
        List<Header> headers = List.of(
                new RecordHeader(StateSignature.KEY_ID_HEADER, SIGNER.keyId().getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(
                        StateSignature.SIGNATURE_HEADER,
                        SIGNER.sign(topic, key, value).getBytes(StandardCharsets.UTF_8)));
        return send(new ProducerRecord<>(topic, null, timestamp, key, value, headers));
    }

    private RecordMetadata send(ProducerRecord<String, String> record) {
        String topic = record.topic();
        try {
            return producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not publish to " + topic, e);
        }
    }

    /**
     * Reads {@code topic} from the beginning until {@code done} holds for the records whose key
     * matches, or the timeout passes; returns those records' values.
     */
    public List<String> read(
            String topic, Predicate<String> keyMatches, Predicate<List<String>> done, Duration timeout) {
        List<String> values = new ArrayList<>();
        readRecords(
                topic,
                keyMatches,
                records -> {
                    values.clear();
                    records.forEach(record -> values.add(record.value()));
                    return done.test(values);
                },
                timeout);
        return values;
    }

    /** {@link #read}, whole records (headers, partition, offset) rather than their values. */
    public List<ConsumerRecord<String, String>> readRecords(
            String topic,
            Predicate<String> keyMatches,
            Predicate<List<ConsumerRecord<String, String>>> done,
            Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG,
                "gateway-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline && !done.test(records)) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(300))) {
                    if (keyMatches.test(record.key())) {
                        records.add(record);
                    }
                }
            }
        }
        return records;
    }

    /** A record on {@code topic} with one header ({@code headerValue} null: no header). */
    public RecordMetadata withHeader(String topic, String key, String value, String header, String headerValue) {
        List<Header> headers = new ArrayList<>();
        if (headerValue != null) {
            headers.add(new RecordHeader(header, headerValue.getBytes(StandardCharsets.UTF_8)));
        }
        return send(new ProducerRecord<>(topic, null, key, value, headers));
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
