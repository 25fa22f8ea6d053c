package io.routegateway.e2e;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.core.json.Json;
import io.routegateway.e2e.support.EndToEndTest;
import io.routegateway.e2e.support.GatewayClient;
import io.routegateway.e2e.support.Http;
import io.routegateway.e2e.support.Metrics;
import io.routegateway.e2e.support.Pool;
import io.routegateway.e2e.support.RouteSystem;
import io.routegateway.e2e.support.TopicRecords;
import io.routegateway.testsupport.ProducerSigning;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kafka as a trust boundary, against the real broker and services: records forged on the state
 * topics by a plain producer without state-service's signing key (a new AccessKey, the credential
 * redirected to another host, the credential re-enabled, a tombstone) change nothing in the
 * gateway's routing and are counted under {@code reason="signature"}; what state-service signs still
 * flows. The reverse direction too: outcome and usage records forged without a producer's key
 * revoke nothing and bill nothing.
 */
class KafkaTrustIT extends EndToEndTest {

    private static final String SKIPPED = "gateway_view_records_skipped_total";

    @Test
    void recordsForgedWithoutTheSigningKeyChangeNothingAndSignedOnesStillFlow() throws Exception {
        Pool pool = Pool.create(system);
        String credential = pool.credential("tr", spec -> spec.map("gpt-trust", "upstream-sol"));
        String group = pool.group("tr", credential);
        String key = pool.accessKey(group);
        pool.awaitVisible(key);
        GatewayClient gateway = system.gateway();
        assertServedBy(gateway, key, credential);

        AtomicInteger attackerHits = new AtomicInteger();
        HttpServer attacker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        attacker.createContext("/", exchange -> {
            attackerHits.incrementAndGet();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        attacker.start();
        try {
            double skippedBefore = skippedForSignature();
            String latest = latestValue(Topics.CREDENTIAL_STATE, credential);
            ObjectNode redirected = (ObjectNode) Json.MAPPER.readTree(latest);
            redirected.put("version", redirected.path("version").asLong() + 1000);
            redirected.put(
                    "base_url", "http://127.0.0.1:" + attacker.getAddress().getPort() + "/v1");
            String forgedKeyPlaintext = "rk-forged-" + Long.toHexString(System.nanoTime());
            AccessKeySnapshot intruder = new AccessKeySnapshot(
                    "forged-" + Long.toHexString(System.nanoTime()),
                    1,
                    "intruder",
                    AccessKeys.hash(forgedKeyPlaintext),
                    "rk-",
                    true,
                    null,
                    List.of(),
                    List.of(),
                    List.of(group),
                    java.time.Instant.now());
            StateSigner otherKey = StateSigner.fromBase64Pkcs8(
                    RouteSystem.SIGNING_KEY_ID,
                    Base64.getEncoder()
                            .encodeToString(KeyPairGenerator.getInstance("Ed25519")
                                    .generateKeyPair()
                                    .getPrivate()
                                    .getEncoded()));
            String redirectedJson = Json.MAPPER.writeValueAsString(redirected);
            try (KafkaProducer<String, String> producer = producer()) {
                // no signature at all: a new AccessKey, the credential redirected, a tombstone
                producer.send(new ProducerRecord<>(
                        Topics.ACCESS_KEYS, intruder.accessKeyId(), Json.MAPPER.writeValueAsString(intruder)));
                producer.send(new ProducerRecord<>(Topics.CREDENTIAL_STATE, credential, redirectedJson));
                producer.send(new ProducerRecord<>(Topics.CREDENTIAL_STATE, credential, null));
                // signed, but by a key the gateway does not hold, under state-service's key id
                producer.send(new ProducerRecord<>(
                        Topics.CREDENTIAL_STATE,
                        null,
                        credential,
                        redirectedJson,
                        signatureHeaders(
                                otherKey, otherKey.sign(Topics.CREDENTIAL_STATE, credential, redirectedJson))));
                producer.flush();
            }

            await("forged records skipped")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> skippedForSignature() - skippedBefore >= 4);
            for (int i = 0; i < 5; i++) {
                assertServedBy(gateway, key, credential);
            }
            assertThat(gateway.chat(forgedKeyPlaintext, "gpt-trust").status()).isEqualTo(401);
            assertThat(attackerHits).hasValue(0);
            assertThat(skippedForSignature() - skippedBefore).isEqualTo(4);

            // state-service's own (signed) records still flow: disabling and re-enabling applies
            system.admin().patchCredential(credential, Map.of("enabled", false));
            await("disabled credential leaves the pool")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> gateway.chat(key, "gpt-trust").status() != 200);
            // a forged re-enable (unsigned, newer version) does not bring it back
            String disabled = latestValue(Topics.CREDENTIAL_STATE, credential);
            ObjectNode reenabled = (ObjectNode) Json.MAPPER.readTree(disabled);
            reenabled.put("version", reenabled.path("version").asLong() + 1000);
            reenabled.put("enabled", true);
            try (KafkaProducer<String, String> producer = producer()) {
                producer.send(new ProducerRecord<>(
                        Topics.CREDENTIAL_STATE, credential, Json.MAPPER.writeValueAsString(reenabled)));
                producer.flush();
            }
            await("forged re-enable skipped")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> skippedForSignature() - skippedBefore >= 5);
            assertThat(gateway.chat(key, "gpt-trust").status()).isNotEqualTo(200);

            system.admin().patchCredential(credential, Map.of("enabled", true));
            await("re-enabled through the admin API")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> gateway.chat(key, "gpt-trust").status() == 200);
            assertServedBy(gateway, key, credential);
            assertThat(attackerHits).hasValue(0);
            System.out.printf(
                    "E2E-SUMMARY KafkaTrustIT: forged records=5 skipped(signature)=%.0f attacker hits=%d%n",
                    skippedForSignature() - skippedBefore, attackerHits.get());
        } finally {
            attacker.stop(0);
        }
    }

    /**
     * The reverse direction: a compromised pod or an intruder on {@code route.outcomes} tries to revoke
     * a credential with outcome events (unsigned, signed by a key state-service does not hold under the
     * gateway's key id, signed by the gateway's key for another credential) and to bill a key with a
     * forged usage batch. state-service applies none of it (the stored credential is not revoked,
     * nothing is billed), dead-letters each with the reason {@code signature}, and goes on applying what
     * the real gateway signs, counted under the gateway's key id.
     */
    @Test
    void forgedOutcomesAndUsageAreDeadLetteredAndStateServiceStoresNothingOfThem() throws Exception {
        Pool pool = Pool.create(system);
        String credential = pool.credential("fo", spec -> spec.map("gpt-forged-outcome", "upstream-sol"));
        String group = pool.group("fo", credential);
        String key = pool.accessKey(group);
        pool.awaitVisible(key);
        GatewayClient gateway = system.gateway();
        Metrics stateBefore = Metrics.of(system.state());
        double outcomesRefusedBefore = stateBefore.sum("state_events_dead_lettered_total", "reason=\"signature\"");
        double usageRefusedBefore = stateBefore.sum("state_usage_dead_lettered_total", "reason=\"signature\"");
        assertThat(gateway.chat(key, "gpt-forged-outcome").status()).isEqualTo(200);
        // the real gateway's usage (and any outcome) arrives signed under its key id and is applied
        await("the gateway's signed usage applied")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Metrics.of(system.state())
                                .sum(
                                        "state_producer_records_total",
                                        "topic=\"route.usage\"",
                                        "key_id=\"" + ProducerSigning.GATEWAY_KEY_ID + "\"")
                        > 0);

        java.util.function.Supplier<String> revoke = () -> Json.write(new CredentialEvent.PermanentFailureRecorded(
                java.util.UUID.randomUUID(),
                credential,
                java.time.Instant.now(),
                null,
                "permanent_failure",
                401,
                "invalid_api_key",
                null));
        String rogue = revoke.get();
        String replayed = revoke.get();
        String usage = UsageBatch.encode(List.of(Json.write(RequestCompleted.refused(
                java.util.UUID.randomUUID(),
                java.time.Instant.now(),
                io.routegateway.core.model.Protocol.OPENAI_CHAT,
                "forged-billing",
                401,
                "invalid_key"))));
        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>(Topics.OUTCOMES, credential, revoke.get()));
            producer.send(new ProducerRecord<>(
                    Topics.OUTCOMES,
                    null,
                    credential,
                    rogue,
                    ProducerSigning.headers(
                            ProducerSigning.rogue(ProducerSigning.GATEWAY_KEY_ID),
                            Topics.OUTCOMES,
                            credential,
                            rogue)));
            producer.send(new ProducerRecord<>(
                    Topics.OUTCOMES,
                    null,
                    credential,
                    replayed,
                    ProducerSigning.headers(Topics.OUTCOMES, "another-credential", replayed)));
            producer.send(new ProducerRecord<String, String>(Topics.USAGE, null, null, usage));
            producer.flush();
        }

        await("forged outcomes and usage dead-lettered for their signature")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Metrics state = Metrics.of(system.state());
                    return state.sum("state_events_dead_lettered_total", "reason=\"signature\"") - outcomesRefusedBefore
                                    >= 3
                            && state.sum("state_usage_dead_lettered_total", "reason=\"signature\"") - usageRefusedBefore
                                    >= 1;
                });
        // state-service went on and the forged ones changed nothing it stores. The gateways' own reader of
        // their peers' outcomes (PeerOutcomesReader) does not verify producer signatures yet, so a forged
        // revoke still takes the credential out of their views until state-service publishes it again: a
        // known gap (docs/security.md, "Signed outcomes and usage"), not asserted here.
        assertThat(system.admin().credential(credential).path("status").asText())
                .isNotIn("revoked", "error");
        Metrics state = Metrics.of(system.state());
        assertThat(state.sum("state_events_dead_lettered_total", "reason=\"signature\"") - outcomesRefusedBefore)
                .isEqualTo(3);
        assertThat(state.sum("state_usage_dead_lettered_total", "reason=\"signature\"") - usageRefusedBefore)
                .isEqualTo(1);
        System.out.printf(
                "E2E-SUMMARY KafkaTrustIT: forged outcomes=3 usage=1 dead-lettered(signature)=%.0f+%.0f credential=%s%n",
                state.sum("state_events_dead_lettered_total", "reason=\"signature\"") - outcomesRefusedBefore,
                state.sum("state_usage_dead_lettered_total", "reason=\"signature\"") - usageRefusedBefore,
                system.admin().credential(credential).path("status").asText());
    }

    private static void assertServedBy(GatewayClient gateway, String key, String credential) {
        Http.Response response = gateway.chat(key, "gpt-trust");
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(credential).startsWith(response.servedBy());
    }

    private static double skippedForSignature() {
        return Metrics.of(system.gatewayProcess()).sum(SKIPPED, "reason=\"signature\"");
    }

    private static List<Header> signatureHeaders(StateSigner signer, String signature) {
        return List.of(
                new RecordHeader(StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8)),
                new RecordHeader(StateSignature.SIGNATURE_HEADER, signature.getBytes(StandardCharsets.UTF_8)));
    }

    private static KafkaProducer<String, String> producer() {
        return TopicRecords.producer(system.broker().bootstrapServers());
    }

    /** The newest non-null value of {@code key} on the topic. */
    private static String latestValue(String topic, String key) {
        List<String> values = TopicRecords.values(system.broker().bootstrapServers(), topic, key).stream()
                .filter(Objects::nonNull)
                .toList();
        assertThat(values).as("snapshots of %s on %s", key, topic).isNotEmpty();
        return values.get(values.size() - 1);
    }
}
