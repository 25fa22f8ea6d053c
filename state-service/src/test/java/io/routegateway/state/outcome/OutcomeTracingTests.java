package io.routegateway.state.outcome;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.Topics;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An outcome record that carries a W3C {@code traceparent} (as the gateway's do) is applied in a
 * span of that trace, a child of the span the header names; one without the header starts no trace.
 */
@QuarkusTest
@TestProfile(OutcomeTracingTests.Traced.class)
class OutcomeTracingTests {

    /** The SDK on, everything sampled, no OTLP exporter (nothing listens), spans exported at once. */
    public static class Traced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quarkus.otel.sdk.disabled", "false",
                    "quarkus.otel.exporter.otlp.enabled", "false",
                    "quarkus.otel.traces.sampler.arg", "1.0",
                    "quarkus.otel.bsp.schedule.delay", "20ms");
        }
    }

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    SecretBox secretBox;

    @Inject
    InMemorySpanExporter spans;

    @Test
    void anOutcomeWithATraceparentIsAppliedInASpanOfThatTrace() throws Exception {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-traced-secret");
        CredentialEvent.TransientFailureRecorded event =
                failure(id, Instant.parse("2026-03-01T10:00:00Z"), "upstream-sol");
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String parentSpanId = "00f067aa0ba902b7";
        ProducerRecord<String, String> record = new ProducerRecord<>(Topics.OUTCOMES, id, json(event));
        record.headers()
                .add("traceparent", ("00-" + traceId + "-" + parentSpanId + "-01").getBytes(StandardCharsets.UTF_8));
        try (KafkaProducer<String, String> producer = TestKafka.producer()) {
            producer.send(record).get();
        }

        await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);
        SpanData apply = await().atMost(PATIENCE)
                .until(
                        () -> spans.getFinishedSpanItems().stream()
                                .filter(s -> id.equals(s.getAttributes().get(RecordTracing.CREDENTIAL_ID)))
                                .findFirst(),
                        Optional::isPresent)
                .get();

        assertThat(apply.getName()).isEqualTo("apply outcomes");
        assertThat(apply.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(apply.getTraceId()).isEqualTo(traceId);
        assertThat(apply.getParentSpanId()).isEqualTo(parentSpanId);
        assertThat(apply.getAttributes().get(RecordTracing.EVENT_ID))
                .isEqualTo(event.eventId().toString());
        assertThat(apply.getAttributes().get(RecordTracing.APPLY_RESULT)).isEqualTo("changed");
        assertThat(apply.getAttributes().get(RecordTracing.STATE_VERSION)).isPositive();
        assertThat(apply.getAttributes().get(RecordTracing.DESTINATION)).isEqualTo(Topics.OUTCOMES);
        apply.getAttributes()
                .forEach((key, value) -> assertThat(String.valueOf(value)).doesNotContain("sk-test-traced-secret"));
    }

    @Test
    void anOutcomeWithoutATraceparentStartsNoApplySpan() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-untraced");
        CredentialEvent.TransientFailureRecorded event =
                failure(id, Instant.parse("2026-03-01T10:00:00Z"), "upstream-sol");
        TestKafka.send(Topics.OUTCOMES, id, json(event));

        await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);

        assertThat(spans.getFinishedSpanItems())
                .noneMatch(s -> id.equals(s.getAttributes().get(RecordTracing.CREDENTIAL_ID)));
    }
}
