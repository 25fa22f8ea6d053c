package io.routegateway.e2e.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Limits;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

import static org.awaitility.Awaitility.await;

/**
 * Teams and keys with limits published as state-service publishes them: signed {@code team.v1} and
 * {@code access-key.v1} records on the state topics (the admin API's team endpoints are state-service's
 * own tests' business; here the gateways' reading of them is what matters).
 */
public final class SignedState {

    private final RouteSystem system;
    private final StateSigner signer =
            StateSigner.fromBase64Pkcs8(RouteSystem.SIGNING_KEY_ID, RouteSystem.SIGNING_PRIVATE_KEY);

    public SignedState(RouteSystem system) {
        this.system = system;
    }

    /** Publishes team {@code teamId} with {@code limits} and fair-share {@code weight}. */
    public void team(String teamId, Limits limits, int weight) {
        publish(Topics.TEAMS, teamId, new TeamSnapshot(teamId, 1, "e2e " + teamId, limits, weight, Instant.now()));
    }

    /**
     * Publishes key {@code id} of {@code team} (null = none) with {@code limits} on {@code groupId}
     * and waits until every replica serves its model list; returns its plaintext.
     */
    public String key(String id, String team, Limits limits, String groupId, List<ServiceProcess> replicas) {
        String plaintext = "rk-e2e-" + id;
        AccessKeySnapshot key = new AccessKeySnapshot(
                id,
                1,
                "e2e " + id,
                AccessKeys.hash(plaintext),
                "rk-e2e",
                true,
                null,
                List.of(),
                List.of(),
                List.of(groupId),
                Instant.now(),
                team,
                limits);
        publish(Topics.ACCESS_KEYS, id, key);
        for (int i = 0; i < replicas.size(); i++) {
            GatewayClient replica = new GatewayClient(replicas.get(i).baseUrl());
            await("key " + id + " visible to replica " + i)
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> replica.models(plaintext).status() == 200);
        }
        return plaintext;
    }

    private void publish(String topic, String key, Object value) {
        try {
            String json = Json.MAPPER.writeValueAsString(value);
            List<Header> headers = List.of(
                    new RecordHeader(
                            StateSignature.KEY_ID_HEADER, signer.keyId().getBytes(StandardCharsets.UTF_8)),
                    new RecordHeader(
                            StateSignature.SIGNATURE_HEADER,
                            signer.sign(topic, key, json).getBytes(StandardCharsets.UTF_8)));
            try (KafkaProducer<String, String> producer =
                    TopicRecords.producer(system.broker().bootstrapServers())) {
                producer.send(new ProducerRecord<>(topic, null, key, json, headers))
                        .get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("publishing " + topic + " " + key, e);
        }
    }
}
