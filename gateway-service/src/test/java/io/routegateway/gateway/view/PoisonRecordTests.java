package io.routegateway.gateway.view;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.event.Topics;
import io.routegateway.gateway.support.GatewayTestBase;
import io.routegateway.gateway.support.Pool;
import io.routegateway.gateway.support.StateTopics;
import io.routegateway.testsupport.Management;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static io.routegateway.gateway.support.MockUpstream.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

/**
 * Records on the state topics that cannot be read or name no entry are skipped and counted per
 * topic and reason; the view keeps following the topics and readiness stays UP.
 */
@QuarkusTest
class PoisonRecordTests extends GatewayTestBase {

    @Inject
    StateTopicsReader reader;

    @Inject
    MeterRegistry registry;

    @Test
    void poisonRecordsAreSkippedAndCountedAndTheViewFollowsOn() {
        // what earlier runs left on the topics is read (and counted) before the baseline
        await().atMost(KAFKA_WAIT).until(reader::caughtUp);
        double unreadableKeys = skipped(Topics.ACCESS_KEYS, StateTopicsReader.UNREADABLE);
        double unreadableCredentials = skipped(Topics.CREDENTIAL_STATE, StateTopicsReader.UNREADABLE);
        double unreadableGroups = skipped(Topics.GROUPS, StateTopicsReader.UNREADABLE);
        double unreadableSettings = skipped(Topics.SETTINGS, StateTopicsReader.UNREADABLE);
        double noIdKeys = skipped(Topics.ACCESS_KEYS, StateTopicsReader.NO_ID);
        double noIdGroups = skipped(Topics.GROUPS, StateTopicsReader.NO_ID);
        double noIdCredentials = skipped(Topics.CREDENTIAL_STATE, StateTopicsReader.NO_ID);
        long before = reader.skippedRecords();

        StateTopics topics = topics();
        List<RecordMetadata> sent = new ArrayList<>();
        sent.add(topics.raw(Topics.ACCESS_KEYS, Pool.uid("k"), "not json"));
        sent.add(topics.raw(Topics.CREDENTIAL_STATE, Pool.uid("c"), "{\"credential_id\":"));
        sent.add(topics.raw(Topics.GROUPS, Pool.uid("g"), "[1,2]"));
        sent.add(topics.raw(Topics.SETTINGS, "poison-" + Pool.uid("s"), "{\"version\":\"not a number\"}"));
        sent.add(topics.raw(
                Topics.ACCESS_KEYS, Pool.uid("k"), "{\"access_key_id\":\"k\",\"allowed_protocols\":[\"bogus\"]}"));
        // no id: a snapshot without one, a tombstone with a blank key (a compacted topic refuses a record
        // with no key at all, and the state topics are compacted once state-service has created them)
        sent.add(topics.raw(Topics.ACCESS_KEYS, Pool.uid("k"), "{}"));
        sent.add(topics.raw(Topics.ACCESS_KEYS, " ", null));
        sent.add(topics.raw(Topics.GROUPS, Pool.uid("g"), "{\"group_id\":\" \"}"));
        sent.add(topics.raw(Topics.GROUPS, " ", null));
        sent.add(topics.raw(Topics.CREDENTIAL_STATE, Pool.uid("c"), "{\"version\":3}"));
        sent.add(topics.raw(Topics.CREDENTIAL_STATE, " ", null));

        // a valid pool after the poison is applied and serves
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(credential, ok());
        install(
                List.of(Pool.credential(credential).serves("m").groups(group).build(box)),
                List.of(Pool.group(group, false)),
                Pool.key(keyId, List.of(group)));
        await().atMost(KAFKA_WAIT)
                .until(() -> sent.stream()
                        .allMatch(record -> reader.position(record.topic(), record.partition()) > record.offset()));
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);

        assertThat(skipped(Topics.ACCESS_KEYS, StateTopicsReader.UNREADABLE) - unreadableKeys)
                .isEqualTo(2);
        assertThat(skipped(Topics.CREDENTIAL_STATE, StateTopicsReader.UNREADABLE) - unreadableCredentials)
                .isEqualTo(1);
        assertThat(skipped(Topics.GROUPS, StateTopicsReader.UNREADABLE) - unreadableGroups)
                .isEqualTo(1);
        assertThat(skipped(Topics.SETTINGS, StateTopicsReader.UNREADABLE) - unreadableSettings)
                .isEqualTo(1);
        assertThat(skipped(Topics.ACCESS_KEYS, StateTopicsReader.NO_ID) - noIdKeys)
                .isEqualTo(2);
        assertThat(skipped(Topics.GROUPS, StateTopicsReader.NO_ID) - noIdGroups).isEqualTo(2);
        assertThat(skipped(Topics.CREDENTIAL_STATE, StateTopicsReader.NO_ID) - noIdCredentials)
                .isEqualTo(2);
        assertThat(reader.skippedRecords() - before).isEqualTo(11);
        assertThat(reader.caughtUp()).isTrue();
        given().when()
                .get(Management.url("/health/ready"))
                .then()
                .statusCode(200)
                .body("checks.find { it.name == 'pool-view' }.status", is("UP"));
        assertThat(given().get(Management.url("/metrics")).asString())
                .contains("gateway_view_records_skipped_total{reason=\"no_id\",topic=\"" + Topics.ACCESS_KEYS + "\"}");
    }

    private double skipped(String topic, String reason) {
        Counter counter = registry.find("gateway.view.records.skipped")
                .tag("topic", topic)
                .tag("reason", reason)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
