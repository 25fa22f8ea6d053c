package io.routegateway.state.usage;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.RequestCompleted;
import io.routegateway.core.event.Topics;
import io.routegateway.core.event.UsageBatch;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import io.routegateway.testsupport.Management;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.state.support.AdminApiFixtures.unique;
import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When PostgreSQL refuses the request logs for lack of space, the usage consumer pauses (its records
 * wait in Kafka, the readiness check {@code state-usage-consumer} says so) while credential-state
 * events keep applying; once the space is back every usage record is stored exactly once.
 *
 * <p>The full disk is simulated: a statement trigger on {@code request_logs} raises SQLSTATE 53100
 * ({@code disk_full}), what PostgreSQL answers when a tablespace's file system is full (checked by
 * hand against a small tmpfs tablespace: docs/state-service.md, "When PostgreSQL is out of space").
 * The real PostgreSQL and the real broker are used throughout.
 */
@QuarkusTest
class UsageStoragePauseTests {

    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @Inject
    Pool pool;

    @Inject
    SecretBox secretBox;

    @Test
    void aFullDiskPausesTheUsageConsumerNotTheStatePathAndLosesNothing() {
        String key = unique("ak-full");
        String credentialId =
                OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-full-" + UUID.randomUUID());
        execute("CREATE OR REPLACE FUNCTION usage_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $f$"
                + " BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';"
                + " END $f$");
        execute("CREATE TRIGGER usage_test_disk_full BEFORE INSERT ON request_logs"
                + " FOR EACH STATEMENT EXECUTE FUNCTION usage_test_disk_full()");
        try {
            Instant at = Instant.parse("2026-09-21T08:00:00Z");
            List<RequestCompleted> records = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                records.add(UsageRollupsTests.record(key, at.plusSeconds(i * 7L), 10L + i, 3L));
            }
            // one record alone, then the gateway's batches, one of them sent twice (a redelivery)
            TestKafka.send(Topics.USAGE, "cred-r", json(records.get(0)));
            for (int from = 1; from < records.size(); from += 20) {
                List<String> batch = new ArrayList<>();
                for (RequestCompleted record : records.subList(from, Math.min(records.size(), from + 20))) {
                    batch.add(json(record));
                }
                TestKafka.send(Topics.USAGE, "cred-r", UsageBatch.encode(batch));
                if (from == 1) {
                    TestKafka.send(Topics.USAGE, "cred-r", UsageBatch.encode(batch));
                }
            }

            org.awaitility.Awaitility.await().atMost(PATIENCE).untilAsserted(() -> {
                Map<String, Object> data = consumerCheck();
                assertThat(data.get("paused")).isEqualTo(true);
                assertThat(data.get("reason")).isEqualTo("out_of_space");
                assertThat(data.get("sqlstate")).isEqualTo("53100");
            });

            // the credential-state path goes on while the logs wait
            CredentialEvent.TransientFailureRecorded event =
                    OutcomeFixtures.failure(credentialId, Instant.now(), "upstream-sol");
            TestKafka.send(Topics.OUTCOMES, credentialId, json(event));
            org.awaitility.Awaitility.await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);
            assertThat(OutcomeFixtures.credential(credentialId).stateVersion).isPositive();
            assertThat(stored(key)).isZero();
            assertThat(consumerCheck().get("paused")).isEqualTo(true);
        } finally {
            // the space is back
            execute("DROP TRIGGER IF EXISTS usage_test_disk_full ON request_logs");
            execute("DROP FUNCTION IF EXISTS usage_test_disk_full()");
        }

        org.awaitility.Awaitility.await().atMost(PATIENCE).until(() -> stored(key) == 60);
        org.awaitility.Awaitility.await()
                .atMost(PATIENCE)
                .untilAsserted(() -> assertThat(consumerCheck().get("paused")).isEqualTo(false));
        // exactly once: every record one row, counted once in the rollups, nothing dead-lettered
        Row once = await(() -> pool.preparedQuery("SELECT count(*) AS rows, count(DISTINCT request_id) AS ids,"
                                + " sum(input_tokens) AS input FROM request_logs WHERE access_key_id = $1")
                        .execute(Tuple.of(key)))
                .iterator()
                .next();
        assertThat(once.getLong("rows")).isEqualTo(60);
        assertThat(once.getLong("ids")).isEqualTo(60);
        long input = 60 * 10 + (59 * 60) / 2;
        assertThat(once.getLong("input")).isEqualTo(input);
        for (String table : List.of("usage_rollups", "usage_rollups_hourly", "usage_rollups_daily")) {
            Row rolled = await(() -> pool.preparedQuery("SELECT sum(requests) AS requests, sum(input_tokens) AS input"
                                    + " FROM " + table + " WHERE access_key_id = $1")
                            .execute(Tuple.of(key)))
                    .iterator()
                    .next();
            assertThat(rolled.getLong("requests")).as(table).isEqualTo(60);
            assertThat(rolled.getLong("input")).as(table).isEqualTo(input);
        }
        assertThat(TestKafka.readKey(Topics.USAGE_DEAD_LETTER, "cred-r"))
                .noneMatch(record -> record.value().contains(key));
    }

    private long stored(String key) {
        return await(() -> pool.preparedQuery("SELECT count(*) FROM request_logs WHERE access_key_id = $1")
                        .execute(Tuple.of(key)))
                .iterator()
                .next()
                .getLong(0);
    }

    private void execute(String sql) {
        await(() -> pool.query(sql).execute());
    }

    /** The data of the readiness check {@code state-usage-consumer}. */
    static Map<String, Object> consumerCheck() {
        String body =
                given().get(Management.url("/health/ready")).then().extract().asString();
        List<Map<String, Object>> checks = JsonPath.from(body).getList("checks");
        for (Map<String, Object> check : checks) {
            if ("state-usage-consumer".equals(check.get("name"))) {
                assertThat(check.get("status")).isEqualTo("UP");
                @SuppressWarnings("unchecked")
                Map<String, Object> data = (Map<String, Object>) check.get("data");
                return data;
            }
        }
        throw new AssertionError("no state-usage-consumer check in " + body);
    }
}
