package io.routegateway.state.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.repository.RequestLogEntity;
import io.routegateway.state.repository.RuntimeSettingEntity;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.Records.logs;
import static io.routegateway.state.support.Records.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Usage records land in request_logs in batches; redeliveries are ignored; failures are kept. */
@QuarkusTest
class UsageConsumerTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @Inject
    MeterRegistry registry;

    @Test
    void aBatchLandsInRequestLogsWithCostsAndDuplicatesAreIgnored() {
        String model = "priced-" + UUID.randomUUID();
        OutcomeFixtures.inTransaction(() -> RuntimeSettingEntity.<RuntimeSettingEntity>findById("model_prices")
                .invoke(setting ->
                        setting.value = "{\"" + model + "\":{\"input_per_million\":2.5,\"output_per_million\":10}}"));
        String accessKey = "key-" + UUID.randomUUID();
        Instant at = Instant.parse("2026-07-01T12:00:00.250Z");
        RequestCompleted ok = record(accessKey, at, model, true, 200, null, 1000L, 200L);
        RequestCompleted failed =
                record(accessKey, at.plusSeconds(1), model, false, 502, "no_available_credential", null, null);
        RequestCompleted unpriced = record(accessKey, at.plusSeconds(2), "unpriced-model", true, 200, null, 10L, 10L);
        double rejectedBefore = unparsable();

        try (KafkaProducer<String, String> producer = TestKafka.producer()) {
            producer.send(new ProducerRecord<>(Topics.USAGE, "cred-a", json(ok)));
            producer.send(new ProducerRecord<>(Topics.USAGE, "cred-a", json(failed)));
            producer.send(new ProducerRecord<>(Topics.USAGE, "cred-a", "{broken usage"));
            producer.send(new ProducerRecord<>(Topics.USAGE, "cred-a", json(unpriced)));
            producer.send(new ProducerRecord<>(Topics.USAGE, "cred-a", json(ok)));
        }

        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 3);
        await().atMost(PATIENCE).until(() -> unparsable() > rejectedBefore);
        List<RequestLogEntity> rows = logs(accessKey);
        RequestLogEntity okRow = row(rows, ok.requestId());
        // 1000 × 2.5 + 200 × 10 micro-USD
        assertThat(okRow.costMicros).isEqualTo(4500L);
        assertThat(okRow.occurredAt).isEqualTo(at);
        assertThat(okRow.occurredEpochMs).isEqualTo(at.toEpochMilli());
        assertThat(okRow.protocol).isEqualTo("openai_chat");
        assertThat(okRow.success).isTrue();
        RequestLogEntity failedRow = row(rows, failed.requestId());
        assertThat(failedRow.success).isFalse();
        assertThat(failedRow.status).isEqualTo(502);
        assertThat(failedRow.reasonCode).isEqualTo("no_available_credential");
        assertThat(failedRow.costMicros).isNull();
        assertThat(row(rows, unpriced.requestId()).costMicros).isNull();

        // a redelivery of the whole batch changes nothing
        TestKafka.send(Topics.USAGE, "cred-a", json(failed));
        RequestCompleted marker = record(accessKey, at.plusSeconds(3), model, true, 200, null, 1L, 1L);
        TestKafka.send(Topics.USAGE, "cred-a", json(marker));
        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 4);
        assertThat(row(logs(accessKey), failed.requestId()).occurredAt).isEqualTo(at.plusSeconds(1));
    }

    @Test
    void aGatewaysBatchIsStoredColumnByColumnInOneStatementAndARequestIdTwiceInItIsStoredOnce() {
        String accessKey = "key-" + UUID.randomUUID();
        Instant at = Instant.parse("2026-07-02T08:30:00.125Z");
        RequestCompleted streamed = new RequestCompleted(
                UUID.randomUUID(),
                at,
                Protocol.ANTHROPIC_MESSAGES,
                accessKey,
                "group-b",
                "cred-b",
                "alias-model",
                "upstream-model",
                2,
                200,
                null,
                1234,
                56L,
                7L,
                8L,
                true,
                true,
                true,
                false);
        RequestCompleted refused = RequestCompleted.refused(
                UUID.randomUUID(), at.plusMillis(1), Protocol.GEMINI, accessKey, 401, "invalid_key");
        List<RequestCompleted> records = new java.util.ArrayList<>();
        records.add(streamed);
        records.add(refused);
        records.add(streamed);
        for (int i = 0; i < 40; i++) {
            records.add(record(accessKey, at.plusSeconds(i + 2), "bulk-" + i, i % 2 == 0, 200, null, 1L, 2L));
        }

        TestKafka.send(
                Topics.USAGE,
                null,
                io.routegateway.core.event.UsageBatch.encode(records.stream()
                        .map(io.routegateway.state.support.OutcomeFixtures::json)
                        .toList()));

        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 42);
        List<RequestLogEntity> rows = logs(accessKey);
        RequestLogEntity row = row(rows, streamed.requestId());
        assertThat(row.occurredAt).isEqualTo(at);
        assertThat(row.occurredEpochMs).isEqualTo(at.toEpochMilli());
        assertThat(row.protocol).isEqualTo("anthropic_messages");
        assertThat(row.accessKeyId).isEqualTo(accessKey);
        assertThat(row.groupId).isEqualTo("group-b");
        assertThat(row.credentialId).isEqualTo("cred-b");
        assertThat(row.requestedModel).isEqualTo("alias-model");
        assertThat(row.modelKey).isEqualTo("upstream-model");
        assertThat(row.attempts).isEqualTo(2);
        assertThat(row.status).isEqualTo(200);
        assertThat(row.reasonCode).isNull();
        assertThat(row.latencyMs).isEqualTo(1234);
        assertThat(row.ttftMs).isEqualTo(56L);
        assertThat(row.inputTokens).isEqualTo(7L);
        assertThat(row.outputTokens).isEqualTo(8L);
        assertThat(row.stream).isTrue();
        assertThat(row.clientDisconnected).isTrue();
        assertThat(row.success).isTrue();
        assertThat(row.probe).isFalse();
        RequestLogEntity refusedRow = row(rows, refused.requestId());
        assertThat(refusedRow.protocol).isEqualTo("gemini");
        assertThat(refusedRow.status).isEqualTo(401);
        assertThat(refusedRow.reasonCode).isEqualTo("invalid_key");
        assertThat(refusedRow.groupId).isNull();
        assertThat(refusedRow.credentialId).isNull();
        assertThat(refusedRow.ttftMs).isNull();
        assertThat(refusedRow.inputTokens).isNull();
        assertThat(refusedRow.success).isFalse();
        assertThat(rows)
                .filteredOn(stored -> stored.requestedModel != null && stored.requestedModel.startsWith("bulk-"))
                .hasSize(40)
                .allSatisfy(stored -> assertThat(stored.outputTokens).isEqualTo(2L));
    }

    private double unparsable() {
        return Search.in(registry)
                .name(StateMetrics.USAGE_DEAD_LETTERED)
                .tag("reason", "unparsable")
                .counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }

    private static RequestCompleted record(
            String accessKey,
            Instant at,
            String model,
            boolean success,
            int status,
            String reason,
            Long inputTokens,
            Long outputTokens) {
        return RequestCompleted.settled(
                UUID.randomUUID(),
                at,
                Protocol.OPENAI_CHAT,
                accessKey,
                "group-a",
                success ? "cred-a" : null,
                model,
                model,
                success ? 1 : 3,
                status,
                reason,
                850,
                success ? 120L : null,
                inputTokens,
                outputTokens,
                true,
                false,
                success);
    }
}
