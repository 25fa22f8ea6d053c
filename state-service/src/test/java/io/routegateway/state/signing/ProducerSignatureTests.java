package io.routegateway.state.signing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import io.routegateway.testsupport.ProducerSigning;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static io.routegateway.state.support.Records.header;
import static io.routegateway.state.support.Records.logs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Outcome and usage messages are applied only when a producer key state-service holds signed them
 * over their topic, key and value: an unsigned, rogue-signed, unknown-key, tampered, re-keyed or
 * wrong-topic message changes nothing, is dead-lettered with the reason {@code signature} and
 * counted, the next signed message is applied, and what each key signed is counted under its id.
 */
@QuarkusTest
class ProducerSignatureTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    SecretBox secretBox;

    @Inject
    MeterRegistry registry;

    @Test
    void forgedOutcomesRevokeNothingAndTheNextSignedOneIsApplied() throws Exception {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-forged");
        Instant at = Instant.parse("2026-12-06T10:00:00Z");
        double refusedBefore = eventsRefused();
        double signedBefore = signedBy(Topics.OUTCOMES, ProducerSigning.GATEWAY_KEY_ID);

        List<CredentialEvent.PermanentFailureRecorded> forged =
                List.of(revoke(id, at), revoke(id, at), revoke(id, at), revoke(id, at), revoke(id, at), revoke(id, at));
        String other = "cred-other-" + UUID.randomUUID();
        StateSigner gateway = ProducerSigning.gateway();
        try (KafkaProducer<String, String> intruder = TestKafka.unsignedProducer()) {
            // 1. unsigned
            send(intruder, Topics.OUTCOMES, id, json(forged.get(0)), null);
            // 2. a key state-service does not hold, claiming the gateway's key id
            send(
                    intruder,
                    Topics.OUTCOMES,
                    id,
                    json(forged.get(1)),
                    ProducerSigning.rogue(ProducerSigning.GATEWAY_KEY_ID));
            // 3. a key id state-service does not know
            send(intruder, Topics.OUTCOMES, id, json(forged.get(2)), ProducerSigning.rogue("gateway-evil"));
            // 4. tampered: a signed success turned into a revocation, signature kept
            String success = json(OutcomeFixtures.success(id, at, "upstream-sol"));
            intruder.send(new ProducerRecord<>(
                            Topics.OUTCOMES,
                            null,
                            id,
                            json(forged.get(3)),
                            ProducerSigning.headers(Topics.OUTCOMES, id, success)))
                    .get(30, TimeUnit.SECONDS);
            // 5. signed for another credential (key), replayed under this one
            intruder.send(new ProducerRecord<>(
                            Topics.OUTCOMES,
                            null,
                            id,
                            json(forged.get(4)),
                            ProducerSigning.headers(Topics.OUTCOMES, other, json(forged.get(4)))))
                    .get(30, TimeUnit.SECONDS);
            // 6. signed for route.usage, replayed on route.outcomes
            intruder.send(new ProducerRecord<>(
                            Topics.OUTCOMES,
                            null,
                            id,
                            json(forged.get(5)),
                            ProducerSigning.headers(gateway, Topics.USAGE, id, json(forged.get(5)))))
                    .get(30, TimeUnit.SECONDS);
        }
        CredentialEvent good = failure(id, at.plusSeconds(1), "upstream-sol");
        TestKafka.send(Topics.OUTCOMES, id, json(good));

        // the pipeline went on past six refusals and applied the signed event
        await().atMost(PATIENCE).until(() -> processed(good.eventId()) == 1);
        assertThat(credential(id).status).isEqualTo("ok");
        assertThat(credential(id).transientFailureCount).isEqualTo(1);
        forged.forEach(event -> assertThat(processed(event.eventId())).isZero());
        assertThat(eventsRefused()).isGreaterThanOrEqualTo(refusedBefore + 6);
        assertThat(signedBy(Topics.OUTCOMES, ProducerSigning.GATEWAY_KEY_ID)).isGreaterThanOrEqualTo(signedBefore + 1);

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> dead = TestKafka.readKey(Topics.OUTCOMES_DEAD_LETTER, id);
            List<String> reasons = dead.stream()
                    .filter(record ->
                            forged.stream().anyMatch(event -> json(event).equals(record.value())))
                    .map(record -> header(record, "dead-letter-reason"))
                    .toList();
            assertThat(reasons).hasSize(6);
            assertThat(reasons)
                    .filteredOn(reason -> reason.contains("not signed"))
                    .hasSize(1);
            assertThat(reasons)
                    .filteredOn(reason -> reason.contains("signed by an unknown key id"))
                    .hasSize(1);
            assertThat(reasons)
                    .filteredOn(reason -> reason.contains("signature does not verify under key gateway-k1"))
                    .hasSize(4);
            // the claimed unknown id is attacker text, never echoed
            assertThat(reasons).noneMatch(reason -> reason.contains("gateway-evil"));
        });
    }

    @Test
    void forgedUsageBillsNothingAndASignedBatchIsStored() throws Exception {
        String accessKey = "key-" + UUID.randomUUID();
        Instant at = Instant.parse("2026-12-06T11:00:00Z");
        String forgedBatch = UsageBatch.encode(List.of(json(usage(accessKey, at)), json(usage(accessKey, at))));
        String signedBatch = UsageBatch.encode(List.of(json(usage(accessKey, at)), json(usage(accessKey, at))));
        double refusedBefore = usageRefused();
        double signedBefore = signedBy(Topics.USAGE, ProducerSigning.GATEWAY_KEY_ID);

        try (KafkaProducer<String, String> intruder = TestKafka.unsignedProducer()) {
            send(intruder, Topics.USAGE, null, forgedBatch, null);
            send(intruder, Topics.USAGE, null, forgedBatch, ProducerSigning.rogue(ProducerSigning.RECOVERY_KEY_ID));
            // a signed batch with one more record appended
            String grown = UsageBatch.encode(
                    List.of(json(usage(accessKey, at)), json(usage(accessKey, at)), json(usage(accessKey, at))));
            intruder.send(new ProducerRecord<String, String>(
                            Topics.USAGE, null, null, grown, ProducerSigning.headers(Topics.USAGE, null, signedBatch)))
                    .get(30, TimeUnit.SECONDS);
            // a signed outcome's bytes replayed as usage
            intruder.send(new ProducerRecord<String, String>(
                            Topics.USAGE,
                            null,
                            null,
                            forgedBatch,
                            ProducerSigning.headers(Topics.OUTCOMES, null, forgedBatch)))
                    .get(30, TimeUnit.SECONDS);
        }
        TestKafka.send(Topics.USAGE, null, signedBatch);

        // only the signed batch's two records are stored: the forged seven bill nothing
        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 2);
        await().atMost(PATIENCE).until(() -> usageRefused() >= refusedBefore + 4);
        assertThat(signedBy(Topics.USAGE, ProducerSigning.GATEWAY_KEY_ID)).isGreaterThanOrEqualTo(signedBefore + 1);
        // a marker sent after everything: once it is stored, nothing forged is still on its way
        String marker = UsageBatch.encode(List.of(json(usage(accessKey, at))));
        TestKafka.send(Topics.USAGE, null, marker);
        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 3);

        List<ConsumerRecord<String, String>> dead = TestKafka.readAll(Topics.USAGE_DEAD_LETTER).stream()
                .filter(record -> record.value() != null && record.value().contains(accessKey))
                .toList();
        assertThat(dead).hasSize(4).allSatisfy(record -> {
            // the whole message, unread: no batch index, the reason says which check failed
            assertThat(record.headers().lastHeader("dead-letter-batch-index")).isNull();
            assertThat(header(record, "dead-letter-reason")).containsAnyOf("not signed", "does not verify");
        });
    }

    @Test
    void recoveryServicesKeySignsToo() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-recovery-signed");
        double before = signedBy(Topics.OUTCOMES, ProducerSigning.RECOVERY_KEY_ID);
        CredentialEvent event = failure(id, Instant.parse("2026-12-06T12:00:00Z"), "upstream-sol");
        StateSigner recovery = StateSigner.fromBase64Pkcs8(
                io.routegateway.core.crypto.StateSignature.Domain.PRODUCER,
                ProducerSigning.RECOVERY_KEY_ID,
                ProducerSigning.RECOVERY_PRIVATE_KEY);
        try (KafkaProducer<String, String> producer = TestKafka.unsignedProducer()) {
            send(producer, Topics.OUTCOMES, id, json(event), recovery);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);
        assertThat(signedBy(Topics.OUTCOMES, ProducerSigning.RECOVERY_KEY_ID)).isEqualTo(before + 1);
    }

    /** Sends one record, signed by {@code signer} (null: unsigned), and waits for the broker. */
    private static void send(
            KafkaProducer<String, String> producer, String topic, String key, String value, StateSigner signer)
            throws Exception {
        Headers headers = signer == null
                ? new org.apache.kafka.common.header.internals.RecordHeaders()
                : ProducerSigning.headers(signer, topic, key, value);
        producer.send(new ProducerRecord<>(topic, null, key, value, headers)).get(30, TimeUnit.SECONDS);
    }

    private static CredentialEvent.PermanentFailureRecorded revoke(String id, Instant at) {
        return new CredentialEvent.PermanentFailureRecorded(
                UUID.randomUUID(), id, at, null, "permanent_failure", 401, "invalid_api_key", null);
    }

    private static RequestCompleted usage(String accessKey, Instant at) {
        return RequestCompleted.refused(UUID.randomUUID(), at, Protocol.OPENAI_CHAT, accessKey, 401, "invalid_key");
    }

    private double eventsRefused() {
        return counter(StateMetrics.EVENTS_DEAD_LETTERED, "reason", "signature");
    }

    private double usageRefused() {
        return counter(StateMetrics.USAGE_DEAD_LETTERED, "reason", "signature");
    }

    private double signedBy(String topic, String keyId) {
        return Search.in(registry)
                .name(StateMetrics.PRODUCER_RECORDS)
                .tag("topic", topic)
                .tag("key_id", keyId)
                .counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }

    private double counter(String name, String tag, String value) {
        return Search.in(registry).name(name).tag(tag, value).counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }
}
