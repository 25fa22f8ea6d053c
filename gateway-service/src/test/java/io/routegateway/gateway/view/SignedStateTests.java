package io.routegateway.gateway.view;

import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.crypto.StateSigner;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.state.AccountState;
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
 * Kafka as a trust boundary: a producer that can write the state topics but does not hold
 * state-service's signing key changes nothing in routing. Unsigned, wrongly signed and replayed
 * records are skipped and counted under reason {@value StateTopicsReader#SIGNATURE}; signed records
 * still apply; readiness stays UP. A signed snapshot that points a sealed secret at another base URL
 * (an edit behind the admin API's back) cannot use the secret.
 */
@QuarkusTest
class SignedStateTests extends GatewayTestBase {

    @Inject
    StateTopicsReader reader;

    @Inject
    MeterRegistry registry;

    @Test
    void forgedRecordsChangeNothingAndAreCounted() throws Exception {
        await().atMost(KAFKA_WAIT).until(reader::caughtUp);
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        upstream.on(credential, ok());
        CredentialSnapshot installed =
                Pool.credential(credential).serves("m").groups(group).build(box);
        install(List.of(installed), List.of(Pool.group(group, false)), Pool.key(keyId, List.of(group)));
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);
        double skippedBefore = skipped(Topics.CREDENTIAL_STATE) + skipped(Topics.ACCESS_KEYS);

        StateTopics topics = topics();
        String attacker = Pool.uid("attacker");
        StateSigner otherKey = StateSigner.fromBase64Pkcs8(
                "k1",
                Base64.getEncoder()
                        .encodeToString(KeyPairGenerator.getInstance("Ed25519")
                                .generateKeyPair()
                                .getPrivate()
                                .getEncoded()));
        List<RecordMetadata> forged = new ArrayList<>();
        // a new access key with no signature at all
        String forgedKey = Pool.uid("k");
        AccessKeySnapshot intruder = Pool.key(forgedKey, List.of(group));
        forged.add(topics.forged(Topics.ACCESS_KEYS, forgedKey, StateTopics.json(intruder), null, null));
        // the credential redirected to the attacker's host with its real sealed secret, signed by
        // another key under state-service's key id
        CredentialSnapshot redirected =
                copy(installed, installed.version() + 1, upstream.baseUrl(attacker), installed.account());
        String redirectedJson = StateTopics.json(redirected);
        forged.add(topics.forged(
                Topics.CREDENTIAL_STATE,
                credential,
                redirectedJson,
                "k1",
                otherKey.sign(Topics.CREDENTIAL_STATE, credential, redirectedJson)));
        // a genuine signature of another record replayed under this credential's key
        CredentialSnapshot disabled =
                copy(installed, installed.version() + 2, installed.baseUrl(), AccountState.HEALTHY);
        String disabledJson = StateTopics.json(disabled).replace("\"enabled\":true", "\"enabled\":false");
        String otherCredential = Pool.uid("c");
        forged.add(topics.forged(
                Topics.CREDENTIAL_STATE,
                credential,
                disabledJson,
                "k1",
                StateTopics.SIGNER.sign(Topics.CREDENTIAL_STATE, otherCredential, disabledJson)));
        // a tombstone without signature, and one under an unknown key id
        forged.add(topics.forged(Topics.CREDENTIAL_STATE, credential, null, null, null));
        forged.add(topics.forged(
                Topics.CREDENTIAL_STATE,
                credential,
                null,
                "k9",
                StateTopics.SIGNER.sign(Topics.CREDENTIAL_STATE, credential, null)));
        await().atMost(KAFKA_WAIT)
                .until(() -> forged.stream()
                        .allMatch(record -> reader.position(record.topic(), record.partition()) > record.offset()));

        assertThat(views.pool().accessKey(forgedKey)).isEmpty();
        assertThat(post("/v1/chat/completions", forgedKey, chat("m")).statusCode())
                .isEqualTo(401);
        assertThat(views.pool().credential(credential)).hasValueSatisfying(held -> {
            assertThat(held.version()).isEqualTo(installed.version());
            assertThat(held.baseUrl()).isEqualTo(installed.baseUrl());
            assertThat(held.enabled()).isTrue();
        });
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);
        assertThat(upstream.count(attacker)).isZero();
        assertThat(skipped(Topics.CREDENTIAL_STATE) + skipped(Topics.ACCESS_KEYS) - skippedBefore)
                .isEqualTo(5);

        // state-service's signed records still flow: a signed newer version applies
        CredentialSnapshot next = Pool.credential(credential)
                .serves("m")
                .groups(group)
                .version(installed.version() + 3)
                .build(box);
        install(List.of(next), List.of(), null);
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);

        given().when()
                .get(Management.url("/health/ready"))
                .then()
                .statusCode(200)
                .body("checks.find { it.name == 'pool-view' }.status", is("UP"));
        assertThat(given().get(Management.url("/metrics")).asString())
                .contains("gateway_view_records_skipped_total{reason=\"signature\",topic=\"" + Topics.CREDENTIAL_STATE
                        + "\"}");
    }

    @Test
    void aSealedSecretDoesNotOpenOnceTheSnapshotPointsElsewhere() {
        String credential = Pool.uid("c");
        String group = Pool.uid("g");
        String keyId = Pool.uid("k");
        String attacker = Pool.uid("attacker");
        upstream.on(credential, ok());
        upstream.on(attacker, ok());
        CredentialSnapshot installed =
                Pool.credential(credential).serves("m").groups(group).build(box);
        install(List.of(installed), List.of(Pool.group(group, false)), Pool.key(keyId, List.of(group)));
        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isEqualTo(200);

        // signed (as a base_url edited in the database would be published), same sealed secret
        CredentialSnapshot redirected =
                copy(installed, installed.version() + 1, upstream.baseUrl(attacker), installed.account());
        install(List.of(redirected), List.of(), null);

        assertThat(post("/v1/chat/completions", keyId, chat("m")).statusCode()).isNotEqualTo(200);
        assertThat(upstream.count(attacker)).isZero();
    }

    private static CredentialSnapshot copy(
            CredentialSnapshot held, long version, String baseUrl, AccountState account) {
        return new CredentialSnapshot(
                held.credentialId(),
                version,
                held.name(),
                held.platform(),
                held.kind(),
                baseUrl,
                held.encryptedSecret(),
                held.modelMappings(),
                held.failurePolicy(),
                held.enabled(),
                held.archived(),
                held.inPool(),
                held.priority(),
                held.weightMode(),
                held.weight(),
                held.quotaRemaining(),
                held.groupIds(),
                account,
                held.models(),
                held.publishedAt(),
                held.oauth(),
                null,
                held.outcomePosition());
    }

    private double skipped(String topic) {
        Counter counter = registry.find("gateway.view.records.skipped")
                .tag("topic", topic)
                .tag("reason", StateTopicsReader.SIGNATURE)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
