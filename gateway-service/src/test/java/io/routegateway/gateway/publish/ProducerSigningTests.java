package io.routegateway.gateway.publish;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.crypto.StateVerifier;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.model.Protocol;
import io.routegateway.testsupport.ProducerSigning;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.core.Vertx;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the gateway sends on route.outcomes and route.usage carries its producer signature, one per
 * Kafka message, and verifies as state-service verifies it (under the %test public keys).
 */
class ProducerSigningTests {

    private static final StateVerifier STATE_SERVICE =
            StateVerifier.fromSpec(StateSignature.Domain.PRODUCER, ProducerSigning.PUBLIC_KEYS);
    private static final StateSigner GATEWAY = StateSigner.fromBase64Pkcs8(
            StateSignature.Domain.PRODUCER, ProducerSigning.GATEWAY_KEY_ID, ProducerSigning.GATEWAY_PRIVATE_KEY);

    private final CapturingEmitter emitter = new CapturingEmitter();
    private final AtomicInteger dropped = new AtomicInteger();
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void anOutcomeMessageIsSignedOverItsTopicKeyAndValueAndKeepsItsOriginHeader() {
        Header origin = new RecordHeader(Topics.ORIGIN_HEADER, "replica-a".getBytes(StandardCharsets.UTF_8));
        BoundedPublisher publisher = new BoundedPublisher(
                emitter, Topics.OUTCOMES, 10, dropped::addAndGet, origin, new RecordSigning(GATEWAY, Topics.OUTCOMES));
        String event = "{\"type\":\"attempt-succeeded.v1\",\"credential_id\":\"cred-1\"}";

        publisher.publish("cred-1", event);

        Message<? extends String> sent = emitter.sent.get(0);
        OutgoingKafkaRecordMetadata<?> kafka =
                sent.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow();
        assertThat(header(kafka, Topics.ORIGIN_HEADER)).isEqualTo("replica-a");
        assertThat(header(kafka, StateSignature.KEY_ID_HEADER)).isEqualTo("gateway-k1");
        assertThat(verify(Topics.OUTCOMES, "cred-1", event, kafka)).isEqualTo(StateVerifier.Result.VALID);
        // bound to what was sent: another value, key or topic does not verify
        assertThat(verify(Topics.OUTCOMES, "cred-1", event.replace("succeeded", "failed"), kafka))
                .isEqualTo(StateVerifier.Result.INVALID);
        assertThat(verify(Topics.OUTCOMES, "cred-2", event, kafka)).isEqualTo(StateVerifier.Result.INVALID);
        assertThat(verify(Topics.USAGE, "cred-1", event, kafka)).isEqualTo(StateVerifier.Result.INVALID);
    }

    @Test
    void aUsageBatchIsOneMessageWithOneSignature() {
        UsagePublisher usage = new UsagePublisher(
                new BoundedPublisher(
                        emitter, Topics.USAGE, 100, dropped::addAndGet, null, new RecordSigning(GATEWAY, Topics.USAGE)),
                new SimpleMeterRegistry().counter("published"),
                vertx,
                Duration.ofSeconds(1),
                3);

        usage.publish(record("ak-a"));
        usage.publish(record("ak-b"));
        usage.publish(record("ak-c"));

        assertThat(emitter.sent).hasSize(1);
        Message<? extends String> batch = emitter.sent.get(0);
        OutgoingKafkaRecordMetadata<?> kafka =
                batch.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow();
        assertThat(kafka.getKey()).isNull();
        assertThat(kafka.getHeaders().headers(StateSignature.SIGNATURE_HEADER)).hasSize(1);
        assertThat(verify(Topics.USAGE, null, batch.getPayload(), kafka)).isEqualTo(StateVerifier.Result.VALID);
    }

    @Test
    void theGatewaySignsOnlyWithAProducerKey() {
        StateSigner stateKey = StateSigner.fromBase64Pkcs8("k1", ProducerSigning.GATEWAY_PRIVATE_KEY);
        assertThatThrownBy(() -> new RecordSigning(stateKey, Topics.OUTCOMES))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("producer key");
    }

    private static StateVerifier.Result verify(
            String topic, String key, String value, OutgoingKafkaRecordMetadata<?> kafka) {
        return STATE_SERVICE.verify(
                topic,
                key,
                value,
                header(kafka, StateSignature.KEY_ID_HEADER),
                header(kafka, StateSignature.SIGNATURE_HEADER));
    }

    private static String header(OutgoingKafkaRecordMetadata<?> kafka, String name) {
        Header header = kafka.getHeaders().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static RequestCompleted record(String accessKey) {
        return RequestCompleted.refused(
                UUID.randomUUID(),
                Instant.parse("2026-12-06T10:00:00Z"),
                Protocol.OPENAI_CHAT,
                accessKey,
                401,
                "bad_key");
    }
}
