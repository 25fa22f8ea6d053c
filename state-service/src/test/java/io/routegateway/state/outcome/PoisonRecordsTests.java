package io.routegateway.state.outcome;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.RequestLogEntity;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import io.routegateway.testsupport.Management;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static io.routegateway.state.support.Records.header;
import static io.routegateway.state.support.Records.logs;
import static io.routegateway.state.support.Records.only;
import static io.routegateway.state.support.Records.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

/**
 * Records with U+0000 and unpaired surrogates (as JSON escapes, the way a gateway would publish a
 * client's text) never stop a channel: free text is stored repaired, a record with an unstorable
 * identifier is dead-lettered with its reason, the records behind them are stored, and the service
 * stays ready and live.
 */
@QuarkusTest
class PoisonRecordsTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** Placeholders replaced in the JSON text by the escapes {@code \u0000} and {@code \ud800}. */
    private static final String NUL = "~nul~";

    private static final String LONE = "~lone~";

    @Inject
    SecretBox secretBox;

    @Inject
    MeterRegistry registry;

    @Test
    void usageRecordsThatCannotBeStoredAreDeadLetteredAndTheOthersAreStored() {
        String accessKey = "ak-poison-" + UUID.randomUUID();
        Instant at = Instant.parse("2026-08-01T10:00:00Z");
        RequestCompleted everyField = usage(
                UUID.randomUUID(),
                at,
                accessKey + NUL,
                "grp" + NUL,
                "cred" + NUL,
                "mock" + NUL + "model",
                "key" + NUL,
                "reason" + NUL);
        RequestCompleted loneGroup = usage(UUID.randomUUID(), at, accessKey, "grp" + LONE, null, "m", "m", null);
        RequestCompleted modelsOnly = usage(
                UUID.randomUUID(),
                at.plusSeconds(1),
                accessKey,
                "grp-a",
                "cred-a",
                "mock" + NUL + "model",
                "key" + LONE,
                null);
        RequestCompleted hugeModel = usage(
                UUID.randomUUID(), at.plusSeconds(2), accessKey, "grp-a", "cred-a", "h".repeat(100_000), "m", null);
        // passes the screen but cannot be stored (its epoch milliseconds overflow): bounded retries, then the DLQ
        UUID overflowId = UUID.randomUUID();
        String overflow = escaped(usage(overflowId, at, accessKey, "grp-a", "cred-a", "m", "m", null))
                .replace("\"2026-08-01T10:00:00Z\"", "\"+1000000000-01-01T00:00:00Z\"");
        String garbage = "{broken usage " + UUID.randomUUID();
        RequestCompleted good =
                usage(UUID.randomUUID(), at.plusSeconds(3), accessKey, "grp-a", "cred-a", "m", "m", null);
        String key = "poison-" + UUID.randomUUID();

        TestKafka.send(Topics.USAGE, key, escaped(everyField));
        TestKafka.send(Topics.USAGE, key, escaped(loneGroup));
        TestKafka.send(Topics.USAGE, key, escaped(modelsOnly));
        TestKafka.send(Topics.USAGE, key, escaped(hugeModel));
        TestKafka.send(Topics.USAGE, key, overflow);
        TestKafka.send(Topics.USAGE, key, garbage);
        TestKafka.send(Topics.USAGE, key, escaped(good));

        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 3);
        List<RequestLogEntity> rows = logs(accessKey);
        assertThat(row(rows, modelsOnly.requestId()).requestedModel).isEqualTo("mock\uFFFDmodel");
        assertThat(row(rows, modelsOnly.requestId()).modelKey).isEqualTo("key\uFFFD");
        assertThat(row(rows, hugeModel.requestId()).requestedModel).hasSize(257).endsWith("…");
        assertThat(row(rows, good.requestId()).success).isTrue();

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> dead = TestKafka.readKey(Topics.USAGE_DEAD_LETTER, key);
            assertThat(dead).hasSize(4);
            ConsumerRecord<String, String> nul = only(dead, escaped(everyField));
            assertThat(header(nul, "dead-letter-reason"))
                    .isEqualTo("access_key_id holds an unstorable character (U+0000) at index " + accessKey.length());
            assertThat(header(nul, "dead-letter-topic")).isEqualTo(Topics.USAGE);
            assertThat(header(only(dead, escaped(loneGroup)), "dead-letter-reason"))
                    .startsWith("group_id holds an unstorable character (an unpaired surrogate)");
            ConsumerRecord<String, String> unstored = only(dead, overflow);
            assertThat(header(unstored, "dead-letter-reason")).startsWith("request_logs refused the record");
            assertThat(header(unstored, "dead-letter-exception-class-name"))
                    .isEqualTo(ArithmeticException.class.getName());
            assertThat(header(only(dead, garbage), "dead-letter-reason")).startsWith("unparsable usage record");
        });
        assertThat(deadLettered(StateMetrics.USAGE_DEAD_LETTERED, "unstorable")).isGreaterThanOrEqualTo(2);
        assertThat(deadLettered(StateMetrics.USAGE_DEAD_LETTERED, "retries_exhausted"))
                .isGreaterThanOrEqualTo(1);
        assertThat(deadLettered(StateMetrics.USAGE_DEAD_LETTERED, "unparsable")).isGreaterThanOrEqualTo(1);
        assertThat(logs(accessKey)).noneMatch(row -> row.requestId.equals(overflowId));

        // the channel is still consuming, and the service is ready and live
        RequestCompleted after =
                usage(UUID.randomUUID(), at.plusSeconds(4), accessKey, "grp-a", "cred-a", "m", "m", null);
        TestKafka.send(Topics.USAGE, key, escaped(after));
        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 4);
        assertReadyAndLive();
    }

    @Test
    void poisonRecordsInsideAGatewaysBatchAreDeadLetteredOneByOneAndTheRestOfTheBatchIsStored() {
        String accessKey = "ak-batch-" + UUID.randomUUID();
        Instant at = Instant.parse("2026-08-02T10:00:00Z");
        RequestCompleted first = usage(UUID.randomUUID(), at, accessKey, "grp-a", "cred-a", "m", "m", null);
        String nulKey = escaped(usage(UUID.randomUUID(), at, accessKey + NUL, "grp-a", "cred-a", "m", "m", null));
        RequestCompleted repaired = usage(
                UUID.randomUUID(), at.plusSeconds(1), accessKey, "grp-a", "cred-a", "mock" + NUL + "model", "m", null);
        UUID overflowId = UUID.randomUUID();
        String overflow = escaped(usage(overflowId, at, accessKey, "grp-a", "cred-a", "m", "m", null))
                .replace("\"2026-08-02T10:00:00Z\"", "\"+1000000000-01-01T00:00:00Z\"");
        String wrongType = "{\"request_id\":\"" + UUID.randomUUID() + "\",\"occurred_at\":\"" + at
                + "\",\"status\":{\"nested\":[1,2]}}";
        RequestCompleted last =
                usage(UUID.randomUUID(), at.plusSeconds(2), accessKey, "grp-a", "cred-a", "m", "m", null);
        String batch = "[" + json(first) + "," + nulKey + "," + escaped(repaired) + "," + overflow + ",\"text\","
                + wrongType + "," + json(last) + "]";
        RequestCompleted unkeyed =
                usage(UUID.randomUUID(), at.plusSeconds(3), accessKey, "grp-a", "cred-a", "m", "m", null);
        String key = "poison-batch-" + UUID.randomUUID();

        TestKafka.send(Topics.USAGE, key, batch);
        TestKafka.send(Topics.USAGE, null, "[" + json(unkeyed) + "]");

        await().atMost(PATIENCE).until(() -> logs(accessKey).size() == 4);
        List<RequestLogEntity> rows = logs(accessKey);
        assertThat(rows)
                .extracting(row -> row.requestId)
                .containsExactlyInAnyOrder(
                        first.requestId(), repaired.requestId(), last.requestId(), unkeyed.requestId());
        assertThat(row(rows, repaired.requestId()).requestedModel).isEqualTo("mock\uFFFDmodel");

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> dead = TestKafka.readKey(Topics.USAGE_DEAD_LETTER, key);
            // each bad record alone, with its own text as it came, never the whole batch
            assertThat(dead)
                    .extracting(ConsumerRecord::value)
                    .containsExactlyInAnyOrder(nulKey, overflow, "\"text\"", wrongType);
            assertThat(header(only(dead, nulKey), "dead-letter-batch-index")).isEqualTo("1");
            assertThat(header(only(dead, nulKey), "dead-letter-reason"))
                    .startsWith("access_key_id holds an unstorable");
            assertThat(header(only(dead, overflow), "dead-letter-batch-index")).isEqualTo("3");
            assertThat(header(only(dead, overflow), "dead-letter-reason"))
                    .startsWith("request_logs refused the record");
            assertThat(header(only(dead, "\"text\""), "dead-letter-reason"))
                    .isEqualTo("usage record 4 of the batch is not a JSON object");
            assertThat(header(only(dead, wrongType), "dead-letter-reason"))
                    .isEqualTo("usage record 5 of the batch does not match request-completed.v1");
            assertThat(header(only(dead, wrongType), "dead-letter-topic")).isEqualTo(Topics.USAGE);
        });
        assertThat(logs(accessKey)).noneMatch(row -> row.requestId.equals(overflowId));
        assertReadyAndLive();
    }

    @Test
    void outcomeEventsWithUnstorableTextAreRepairedOrDeadLetteredAndTheNextIsApplied() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-poison-records");
        Instant at = Instant.parse("2026-08-01T10:00:00Z");
        CredentialEvent everyField = new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(),
                id + NUL,
                at,
                "upstream-sol" + NUL,
                "upstream_status" + NUL,
                502,
                "bad" + NUL,
                "{\"e\":\"" + NUL + "\"}");
        CredentialEvent pausedNulModel = new CredentialEvent.ModelPaused(UUID.randomUUID(), id, at, "m" + NUL);
        CredentialEvent freeText = new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(),
                id,
                at.plusSeconds(1),
                "upstream-sol",
                "upstream_status",
                502,
                "bad" + NUL + "gateway" + LONE,
                "{\"e\":\"" + NUL + "\"}");
        CredentialEvent good = OutcomeFixtures.failure(id, at.plusSeconds(2), "upstream-glm");

        TestKafka.send(Topics.OUTCOMES, id, escaped(everyField));
        TestKafka.send(Topics.OUTCOMES, id, escaped(pausedNulModel));
        TestKafka.send(Topics.OUTCOMES, id, escaped(freeText));
        TestKafka.send(Topics.OUTCOMES, id, escaped(good));

        await().atMost(PATIENCE).until(() -> processed(good.eventId()) == 1);
        assertThat(processed(freeText.eventId())).isEqualTo(1);
        CredentialModelEntity sol = OutcomeFixtures.models(id).stream()
                .filter(model -> model.modelKey.equals("upstream-sol"))
                .findFirst()
                .orElseThrow();
        assertThat(sol.lastFailureMessage).isEqualTo("bad\uFFFDgateway\uFFFD");
        assertThat(sol.lastFailureResponseJson).isEqualTo("{\"e\":\"\uFFFD\"}");
        assertThat(OutcomeFixtures.models(id)).noneMatch(model -> model.modelKey.startsWith("m\uFFFD"));

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> dead = TestKafka.readKey(Topics.OUTCOMES_DEAD_LETTER, id);
            assertThat(dead).hasSize(2);
            assertThat(header(only(dead, escaped(everyField)), "dead-letter-reason"))
                    .startsWith("credential_id holds an unstorable character (U+0000)");
            assertThat(header(only(dead, escaped(pausedNulModel)), "dead-letter-reason"))
                    .startsWith("model_key holds an unstorable character (U+0000)");
        });
        assertThat(processed(everyField.eventId())).isZero();
        assertThat(processed(pausedNulModel.eventId())).isZero();
        assertThat(deadLettered(StateMetrics.EVENTS_DEAD_LETTERED, "unstorable"))
                .isGreaterThanOrEqualTo(2);
        assertReadyAndLive();
    }

    private static void assertReadyAndLive() {
        given().when()
                .get(Management.url("/health/ready"))
                .then()
                .statusCode(200)
                .body("status", is("UP"));
        given().when()
                .get(Management.url("/health/live"))
                .then()
                .statusCode(200)
                .body("status", is("UP"));
    }

    /** The record's JSON with the placeholders turned into JSON escapes. */
    private static String escaped(Object record) {
        return json(record).replace(NUL, "\\u0000").replace(LONE, "\\ud800");
    }

    private static RequestCompleted usage(
            UUID requestId,
            Instant at,
            String accessKey,
            String group,
            String credential,
            String requested,
            String modelKey,
            String reason) {
        return RequestCompleted.settled(
                requestId,
                at,
                Protocol.OPENAI_CHAT,
                accessKey,
                group,
                credential,
                requested,
                modelKey,
                1,
                200,
                reason,
                10,
                null,
                null,
                null,
                false,
                false,
                true);
    }

    private double deadLettered(String name, String reason) {
        return Search.in(registry).name(name).tag("reason", reason).counters().stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }
}
