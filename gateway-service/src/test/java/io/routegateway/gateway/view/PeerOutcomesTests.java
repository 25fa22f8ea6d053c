package io.routegateway.gateway.view;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.gateway.publish.OutcomePublisher;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every replica applies its peers' failures from {@code route.outcomes} to its view one Kafka hop
 * after they are published (real broker): its own records, peers' successes and records the held
 * snapshot already reflects change nothing, and records it cannot read are skipped and counted.
 */
@QuarkusTest
class PeerOutcomesTests extends GatewayTestBase {

    @Inject
    PeerOutcomesReader reader;

    @Inject
    ReplicaIdentity replica;

    @Inject
    OutcomePublisher publisher;

    @Inject
    MeterRegistry registry;

    private String primary;
    private String backup;
    private String keyId;
    private String group;

    @BeforeEach
    void pool() {
        primary = Pool.uid("c");
        backup = Pool.uid("c");
        group = Pool.uid("g");
        keyId = Pool.uid("k");
        upstream.on(primary, ok());
        upstream.on(backup, ok());
        install(
                List.of(
                        Pool.credential(primary)
                                .serves("m")
                                .groups(group)
                                .priority(0)
                                .build(box),
                        Pool.credential(backup)
                                .serves("m")
                                .groups(group)
                                .priority(1)
                                .build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        await().atMost(KAFKA_WAIT).until(reader::started);
    }

    @Test
    void aPeersFailureIsAvoidedAtOnceWhileOwnRecordsAndPeersSuccessesChangeNothing() {
        // this replica's own record (its origin header): applied before it was published, skipped here
        RecordMetadata own = outcome(primary, failure(primary), replica.id());
        awaitRead(own);
        assertThat(coolingFailures(primary)).isZero();
        assertServedBy(primary);

        RecordMetadata peer = outcome(primary, failure(primary), "another-replica");
        awaitRead(peer);
        assertThat(coolingFailures(primary)).isEqualTo(1);
        assertThat(views.pool().credential(primary).orElseThrow().outcomePosition())
                .isEqualTo(new OutcomePosition(peer.partition(), peer.offset()));
        assertServedBy(backup);

        // a peer's success waits for state-service: the failure stays
        RecordMetadata success = outcome(
                primary,
                Json.write(new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), primary, clock.instant(), "m")),
                null);
        awaitRead(success);
        assertThat(coolingFailures(primary)).isEqualTo(1);
        assertServedBy(backup);
    }

    @Test
    void aRecordTheSnapshotAlreadyReflectsIsNotAppliedAgain() {
        RecordMetadata first = outcome(primary, failure(primary), null);
        awaitRead(first);
        assertThat(coolingFailures(primary)).isEqualTo(1);

        // state-service's snapshot reflects this record and the next one: healthy again, marked past both
        CredentialSnapshot healed = Pool.credential(primary)
                .serves("m")
                .groups(group)
                .priority(0)
                .version(2)
                .outcomePosition(new OutcomePosition(first.partition(), first.offset() + 1))
                .build(box);
        RecordMetadata snapshot = topics().publish(healed);
        await().atMost(KAFKA_WAIT)
                .until(() -> views.pool().credential(primary).orElseThrow().version() == 2);
        assertThat(coolingFailures(primary)).isZero();

        RecordMetadata reflected = outcome(primary, failure(primary), null);
        assertThat(reflected.partition()).isEqualTo(first.partition());
        assertThat(reflected.offset()).isEqualTo(first.offset() + 1);
        awaitRead(reflected);
        assertThat(coolingFailures(primary))
                .as("already in snapshot %s", snapshot.offset())
                .isZero();
        assertServedBy(primary);

        RecordMetadata after = outcome(primary, failure(primary), null);
        awaitRead(after);
        assertThat(coolingFailures(primary)).isEqualTo(1);
    }

    @Test
    void recordsThatCannotBeReadAreSkippedAndCountedAndTheReaderGoesOn() {
        double unreadable = skipped(StateTopicsReader.UNREADABLE);
        double refused = skipped(StateTopicsReader.UNAPPLICABLE);

        List<RecordMetadata> sent = new ArrayList<>();
        sent.add(outcome(primary, "not json", null));
        sent.add(outcome(primary, null, null));
        sent.add(outcome(primary, "[1,2]", null));
        sent.add(outcome(primary, "{\"type\":\"no-such-event.v1\"}", null));
        sent.add(outcome(primary, failure(primary).replace("\"upstream_status\"", "{\"nested\":true}"), null));
        sent.add(outcome(primary, "[".repeat(5_000) + "]".repeat(5_000), null));
        // about 800 KB: under the broker's 1 MB message limit
        sent.add(outcome(primary, "{\"type\":\"transient-failure-recorded.v1\",\"event_id\":\"x".repeat(15_000), null));
        // NUL in an identifier: refused by the inbound screen, as state-service refuses it
        sent.add(outcome(
                primary,
                failure(primary)
                        .replace("\"credential_id\":\"" + primary, "\"credential_id\":\"" + primary + "\\u0000"),
                null));
        for (RecordMetadata record : sent) {
            awaitRead(record);
        }
        assertThat(coolingFailures(primary)).isZero();
        assertThat(skipped(StateTopicsReader.UNREADABLE) - unreadable).isEqualTo(7);
        assertThat(skipped(StateTopicsReader.UNAPPLICABLE) - refused).isEqualTo(1);

        RecordMetadata good = outcome(primary, failure(primary), null);
        awaitRead(good);
        assertThat(coolingFailures(primary)).isEqualTo(1);
    }

    @Test
    void thisReplicasOutcomeRecordsNameItInTheirOriginHeader() {
        String credential = Pool.uid("c");
        publisher.publish(
                new CredentialEvent.AttemptSucceeded(UUID.randomUUID(), credential, clock.instant(), "m"), false);

        List<ConsumerRecord<String, String>> records =
                topics().readRecords(Topics.OUTCOMES, credential::equals, list -> !list.isEmpty(), KAFKA_WAIT);

        assertThat(records).singleElement().satisfies(record -> {
            Header origin = record.headers().lastHeader(Topics.ORIGIN_HEADER);
            assertThat(origin).isNotNull();
            assertThat(new String(origin.value(), StandardCharsets.UTF_8)).isEqualTo(replica.id());
            assertThat(replica.isOwn(origin.value())).isTrue();
        });
        assertThat(replica.isOwn("another-replica".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(replica.isOwn(null)).isFalse();
    }

    private String failure(String credential) {
        return Json.write(new CredentialEvent.TransientFailureRecorded(
                UUID.randomUUID(),
                credential,
                clock.instant(),
                "m",
                "upstream_status",
                429,
                "upstream returned 429",
                null));
    }

    private RecordMetadata outcome(String credential, String value, String origin) {
        return topics().withHeader(Topics.OUTCOMES, credential, value, Topics.ORIGIN_HEADER, origin);
    }

    private void awaitRead(RecordMetadata record) {
        await().atMost(KAFKA_WAIT).until(() -> reader.position(record.partition()) > record.offset());
    }

    private int coolingFailures(String credential) {
        return views.pool()
                .credential(credential)
                .orElseThrow()
                .health()
                .model("m")
                .filter(row -> row.isCoolingAt(clock.instant()))
                .map(row -> Math.max(1, row.transientFailureCount()))
                .orElse(0);
    }

    private void assertServedBy(String credential) {
        int before = upstream.count(credential);
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);
        assertThat(upstream.count(credential)).isEqualTo(before + 1);
    }

    private double skipped(String reason) {
        Counter counter = registry.find("gateway.view.records.skipped")
                .tag("topic", Topics.OUTCOMES)
                .tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
