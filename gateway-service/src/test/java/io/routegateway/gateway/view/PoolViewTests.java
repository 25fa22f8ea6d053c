package io.routegateway.gateway.view;

import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.Topics;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import io.routegateway.testsupport.Management;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

/** The view follows the state topics: versions only move forward, tombstones remove. */
@QuarkusTest
class PoolViewTests extends GatewayTestBase {

    @Inject
    StateTopicsReader reader;

    @Inject
    MeterRegistry registry;

    @Test
    void olderVersionsAreIgnoredAndTombstonesRemove() {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential)
                        .serves("m")
                        .groups(group)
                        .version(5)
                        .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));

        // an older snapshot after a newer one changes nothing
        RecordMetadata older = topics().publish(Pool.credential(credential)
                .serves("other")
                .groups(group)
                .version(4)
                .build(box));
        await().atMost(KAFKA_WAIT).until(() -> reader.position(older.topic(), older.partition()) > older.offset());
        assertThat(views.pool().credential(credential).orElseThrow().version()).isEqualTo(5);
        assertThat(views.pool().credential(credential).orElseThrow().modelMappings())
                .extracting(mapping -> mapping.from())
                .containsExactly("m");
        install(
                List.of(Pool.credential(credential)
                        .serves("m", "n")
                        .groups(group)
                        .version(6)
                        .build(box)),
                List.of(),
                null);
        assertThat(views.pool().credential(credential).orElseThrow().modelMappings())
                .hasSize(2);
        assertThat(post("/v1/chat/completions", keyId, chat("n")).statusCode()).isEqualTo(200);

        topics().tombstone(Topics.CREDENTIAL_STATE, credential);
        await().atMost(KAFKA_WAIT)
                .until(() -> views.pool().credential(credential).isEmpty());
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(502);

        topics().tombstone(Topics.ACCESS_KEYS, keyId);
        await().atMost(KAFKA_WAIT).until(() -> views.pool().accessKey(keyId).isEmpty());
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(401);
    }

    @Test
    void theTimeFromStateServicesSendToTheViewIsRecordedPerSnapshot() {
        String credential = Pool.uid("c");
        Reading delivery = readingOnceCaughtUp(StateTopicsReader.STATE_DELIVERY);

        // stamped five minutes ago: the record's own timestamp, not its arrival, starts the clock
        RecordMetadata sent = topics().publishSentAt(
                        Pool.credential(credential).serves("m").version(1).build(box),
                        System.currentTimeMillis() - 300_000);
        await().atMost(KAFKA_WAIT)
                .until(() -> views.pool().credential(credential).isPresent());
        // a tombstone is a removal, not a snapshot to time
        RecordMetadata removed = topics().tombstone(Topics.CREDENTIAL_STATE, credential);
        await().atMost(KAFKA_WAIT)
                .until(() -> reader.position(removed.topic(), removed.partition()) > removed.offset());

        assertThat(sent.timestamp()).isPositive();
        assertThat(delivery.addedCount()).isEqualTo(1);
        assertThat(delivery.addedMillis()).isGreaterThanOrEqualTo(300_000);
        assertExported("gateway_view_state_delivery_seconds_count");
    }

    @Test
    void theTimeFromAnOutcomesSendToTheViewHoldingItsStateIsRecordedPerCausedSnapshot() {
        String credential = Pool.uid("c");
        Reading propagation = readingOnceCaughtUp(StateTopicsReader.OUTCOME_PROPAGATION);

        // a version an admin action wrote carries no outcome: not timed
        install(List.of(Pool.credential(credential).serves("m").version(1).build(box)), List.of(), null);
        // the outcome behind version 2 left its replica ten minutes ago, its snapshot just now
        RecordMetadata caused = topics().publish(Pool.credential(credential)
                .serves("m")
                .version(2)
                .outcomeSentAt(java.time.Instant.now().minusSeconds(600))
                .build(box));
        await().atMost(KAFKA_WAIT).until(() -> reader.position(caused.topic(), caused.partition()) > caused.offset());

        assertThat(views.pool().credential(credential).orElseThrow().version()).isEqualTo(2);
        assertThat(propagation.addedCount()).isEqualTo(1);
        assertThat(propagation.addedMillis()).isGreaterThanOrEqualTo(600_000).isLessThan(3_600_000);
        assertExported("gateway_view_outcome_propagation_seconds_count");
    }

    /** A timer as it stood before a test's records, to assert on what they added. */
    private record Reading(Timer timer, long count, double totalMillis) {

        long addedCount() {
            return timer.count() - count;
        }

        double addedMillis() {
            return timer.totalTime(TimeUnit.MILLISECONDS) - totalMillis;
        }
    }

    /** The timer's reading once the view has replayed the topics (the replay is not timed). */
    private Reading readingOnceCaughtUp(String name) {
        await().atMost(KAFKA_WAIT).until(reader::caughtUp);
        Timer timer = registry.get(name).timer();
        return new Reading(timer, timer.count(), timer.totalTime(TimeUnit.MILLISECONDS));
    }

    private static void assertExported(String sample) {
        given().when()
                .get(Management.url("/metrics"))
                .then()
                .statusCode(200)
                .body(org.hamcrest.Matchers.containsString(sample));
    }

    @Test
    void readinessReportsTheCaughtUpView() {
        given().when()
                .get(Management.url("/health/ready"))
                .then()
                .statusCode(200)
                .body("status", is("UP"))
                .body("checks.find { it.name == 'pool-view' }.status", is("UP"));
    }
}
