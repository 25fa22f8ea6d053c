package io.routegateway.state.publish;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.crypto.StateSignature;
import io.routegateway.core.crypto.StateVerifier;
import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Protocol;
import io.routegateway.core.state.FailureText;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.AccessKeyGroupEntity;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.GroupCredentialEntity;
import io.routegateway.state.repository.GroupEntity;
import io.routegateway.state.repository.OutboxEntity;
import io.routegateway.state.support.OutcomeFixtures;
import io.routegateway.state.support.TestKafka;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.PRIMARY_CONFIG;
import static io.routegateway.state.support.OutcomeFixtures.await;
import static io.routegateway.state.support.OutcomeFixtures.credential;
import static io.routegateway.state.support.OutcomeFixtures.failure;
import static io.routegateway.state.support.OutcomeFixtures.inTransaction;
import static io.routegateway.state.support.OutcomeFixtures.json;
import static io.routegateway.state.support.OutcomeFixtures.processed;
import static io.routegateway.state.support.OutcomeFixtures.success;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The compacted state topics, read back with a plain consumer from the real broker. */
@QuarkusTest
class StatePublicationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String CLEAR_SECRET = "sk-live-clear-secret-never-published-";

    @Inject
    SecretBox secretBox;

    @Inject
    CredentialEventService service;

    @Inject
    StateTopicSender sender;

    @Inject
    StartupRepublisher republisher;

    @Inject
    StateOutbox stateOutbox;

    @Inject
    OutboxRelay relay;

    @Inject
    MeterRegistry registry;

    @Inject
    Pool pool;

    @Test
    void eachAppliedEventPublishesASnapshotWithTheNextVersionAndNoClearSecret() {
        String secret = CLEAR_SECRET + UUID.randomUUID();
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, secret);
        Instant at = Instant.parse("2026-06-01T09:00:00Z");
        List<CredentialEvent> events = List.of(
                failure(id, at, "upstream-sol"),
                failure(id, at.plusSeconds(1), "upstream-glm"),
                success(id, at.plusSeconds(2), "upstream-sol"),
                new CredentialEvent.ModelPaused(UUID.randomUUID(), id, at.plusSeconds(3), "upstream-glm"));
        // one event at a time: the relay sends only the newest pending row of a key, so events
        // queued together may legitimately publish only their last version
        long expectedVersion = 0;
        List<Instant> sentAt = new java.util.ArrayList<>();
        List<OutcomePosition> positions = new java.util.ArrayList<>();
        for (CredentialEvent event : events) {
            org.apache.kafka.clients.producer.RecordMetadata sent = TestKafka.send(Topics.OUTCOMES, id, json(event));
            sentAt.add(Instant.ofEpochMilli(sent.timestamp()));
            positions.add(new OutcomePosition(sent.partition(), sent.offset()));
            long version = ++expectedVersion;
            await().atMost(PATIENCE).until(() -> processed(event.eventId()) == 1);
            await().atMost(PATIENCE)
                    .untilAsserted(() -> assertThat(snapshots(id))
                            .extracting(CredentialSnapshot::version)
                            .last()
                            .isEqualTo(version));
        }
        assertThat(credential(id).stateVersion).isEqualTo(4);
        assertThat(snapshots(id)).extracting(CredentialSnapshot::version).containsExactly(1L, 2L, 3L, 4L);
        List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.CREDENTIAL_STATE, id);
        assertThat(records).allSatisfy(record -> assertThat(record.value()).doesNotContain(secret));
        List<CredentialSnapshot> snapshots = snapshots(id);
        assertThat(snapshots.get(0).models())
                .extracting(model -> model.modelKey())
                .containsExactly("upstream-sol");
        assertThat(snapshots.get(1).account().cooldownUntil()).isEqualTo(at.plusSeconds(11));
        assertThat(snapshots.get(2).models())
                .extracting(model -> model.modelKey())
                .containsExactly("upstream-glm");
        CredentialSnapshot last = snapshots.get(3);
        assertThat(last.models())
                .singleElement()
                .satisfies(model -> assertThat(model.status().wire()).isEqualTo("paused"));
        assertThat(last.encryptedSecret()).isEqualTo(credential(id).encryptedSecret);
        assertThat(secretBox.open(last.secretBinding(), last.encryptedSecret())).isEqualTo(secret);
        // each version says when the outcome that caused it left its sender: the record's timestamp
        assertThat(snapshots).extracting(CredentialSnapshot::outcomeSentAt).containsExactlyElementsOf(sentAt);
        // and which record it reflects, so a gateway that read that record from route.outcomes skips it
        assertThat(snapshots).extracting(CredentialSnapshot::outcomePosition).containsExactlyElementsOf(positions);

        // a change that did not come from route.outcomes carries no send time
        await(() -> service.apply(
                new CredentialEvent.ModelResumed(UUID.randomUUID(), id, at.plusSeconds(4), "upstream-glm")));
        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(snapshots(id))
                        .extracting(CredentialSnapshot::version)
                        .last()
                        .isEqualTo(5L));
        assertThat(snapshots(id).get(4).outcomeSentAt()).isNull();
        // it still reflects every record before it: the position stays that of the last one
        assertThat(snapshots(id).get(4).outcomePosition()).isEqualTo(positions.get(3));
    }

    @Test
    void aCrashBetweenCommitAndPublishHealsAndTheTopicConvergesToTheDatabase() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-crash");
        Instant at = Instant.parse("2026-06-02T09:00:00Z");
        FlakySender flaky = new FlakySender(ClientProxy.unwrap(sender));
        QuarkusMock.installMockForType(flaky, StateTopicSender.class);
        double failuresBefore =
                registry.counter(StateMetrics.OUTBOX_SEND_FAILURES).count();

        await(() -> service.apply(failure(id, at, "upstream-sol")));
        await(() -> service.apply(failure(id, at.plusSeconds(1), "upstream-sol")));

        // committed, but the broker never acknowledged: the rows wait in the outbox
        await().atMost(PATIENCE)
                .until(() -> registry.counter(StateMetrics.OUTBOX_SEND_FAILURES).count() > failuresBefore);
        assertThat(credential(id).stateVersion).isEqualTo(2);
        assertThat(outboxRows(id)).isNotEmpty();
        assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, id)).isEmpty();

        flaky.failing.set(false);

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<CredentialSnapshot> snapshots = snapshots(id);
            assertThat(snapshots).isNotEmpty();
            CredentialSnapshot latest = snapshots.get(snapshots.size() - 1);
            assertThat(latest.version()).isEqualTo(2);
            assertThat(latest.account().transientFailureCount()).isEqualTo(2);
            assertThat(latest.models())
                    .singleElement()
                    .satisfies(model -> assertThat(model.cooldownUntil()).isEqualTo(at.plusSeconds(11)));
            assertThat(outboxRows(id)).isEmpty();
        });
    }

    @Test
    void aCommittedChangeWaitsWhileAnotherRelayPublishesAndIsPublishedOnceTheLockIsFree() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-relay-lock");
        Instant at = Instant.parse("2026-06-03T09:00:00Z");
        // another replica's relay round (or its post-commit send) holds the relay lock
        SqlConnection otherReplica = pool.getConnection().await().atMost(PATIENCE);
        try {
            otherReplica
                    .query("select pg_advisory_lock(" + OutboxRelay.LOCK_KEY + ")")
                    .execute()
                    .await()
                    .atMost(PATIENCE);

            await(() -> service.apply(failure(id, at, "upstream-sol")));

            // the send right after the commit must not overtake the lock holder: nothing on the topic yet
            assertThat(credential(id).stateVersion).isEqualTo(1);
            assertThat(TestKafka.readKey(Topics.CREDENTIAL_STATE, id)).isEmpty();
            assertThat(outboxRows(id)).hasSize(1);
        } finally {
            otherReplica
                    .query("select pg_advisory_unlock(" + OutboxRelay.LOCK_KEY + ")")
                    .execute()
                    .await()
                    .atMost(PATIENCE);
            otherReplica.close().await().atMost(PATIENCE);
        }

        // the row was kept: a relay round publishes it and deletes it
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(snapshots(id)).extracting(CredentialSnapshot::version).containsExactly(1L);
            assertThat(outboxRows(id)).isEmpty();
        });
    }

    @Test
    void startUpRepublishesEveryCredentialGroupAndAccessKeyAtTheirCurrentVersions() {
        String credentialId = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-republish");
        String groupId = "group-" + UUID.randomUUID();
        String keyId = "key-" + UUID.randomUUID();
        Instant created = Instant.parse("2026-06-03T00:00:00Z");
        inTransaction(() -> {
            GroupEntity group = new GroupEntity();
            group.id = groupId;
            group.name = "team pool";
            group.exposedModels = "[\"gpt-5.6-sol\"]";
            group.version = 7;
            group.createdAt = created;
            group.updatedAt = created;
            AccessKeyEntity key = new AccessKeyEntity();
            key.id = keyId;
            key.name = "team key";
            key.keyHash = AccessKeys.hash("rk-" + UUID.randomUUID());
            key.allowedProtocols = "[\"openai_chat\"]";
            key.version = 3;
            key.createdAt = created;
            key.updatedAt = created;
            return group.persist()
                    .flatMap(ignored -> new GroupCredentialEntity(groupId, credentialId).persist())
                    .flatMap(ignored -> key.persist())
                    .flatMap(ignored -> new AccessKeyGroupEntity(keyId, groupId, 0).persist());
        });

        int settingsBefore =
                TestKafka.readKey(Topics.SETTINGS, RuntimeSettingsSnapshot.KEY).size();
        Integer queued = inTransaction(() -> republisher.queueEverything());
        assertThat(queued).isGreaterThanOrEqualTo(4);
        relay.trigger();

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<CredentialSnapshot> credentials = snapshots(credentialId);
            assertThat(credentials).isNotEmpty();
            assertThat(credentials.get(credentials.size() - 1).groupIds()).containsExactly(groupId);
            assertThat(credentials.get(credentials.size() - 1).version()).isZero();

            List<ConsumerRecord<String, String>> settings =
                    TestKafka.readKey(Topics.SETTINGS, RuntimeSettingsSnapshot.KEY);
            assertThat(settings).hasSizeGreaterThan(settingsBefore);
            assertThat(Json.MAPPER
                            .readValue(settings.get(settings.size() - 1).value(), RuntimeSettingsSnapshot.class)
                            .affinityCapacity())
                    .isPositive();

            List<ConsumerRecord<String, String>> groups = TestKafka.readKey(Topics.GROUPS, groupId);
            assertThat(groups).isNotEmpty();
            GroupSnapshot group =
                    Json.MAPPER.readValue(groups.get(groups.size() - 1).value(), GroupSnapshot.class);
            assertThat(group.version()).isEqualTo(7);
            assertThat(group.exposedModels()).containsExactly("gpt-5.6-sol");

            List<ConsumerRecord<String, String>> keys = TestKafka.readKey(Topics.ACCESS_KEYS, keyId);
            assertThat(keys).isNotEmpty();
            AccessKeySnapshot key =
                    Json.MAPPER.readValue(keys.get(keys.size() - 1).value(), AccessKeySnapshot.class);
            assertThat(key.version()).isEqualTo(3);
            assertThat(key.groupIds()).containsExactly(groupId);
            assertThat(key.allowedProtocols()).containsExactly(Protocol.OPENAI_CHAT);

            // every record state-service publishes, on all four topics, is signed over topic, key and value
            assertSigned(credentialsRecords(credentialId));
            assertSigned(settings);
            assertSigned(groups);
            assertSigned(keys);
        });
    }

    @Test
    void startUpReSealsV1SecretsUnderTheirPlatformAndBaseUrl() throws Exception {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-v1");
        String v1 = sealV1(id, "sk-test-v1");
        inTransaction(() -> CredentialEntity.update("encryptedSecret = ?1 where id = ?2", v1, id));

        inTransaction(() -> republisher.queueEverything());
        relay.trigger();

        CredentialEntity row = credential(id);
        assertThat(row.encryptedSecret).startsWith("v2:");
        assertThat(secretBox.open(row.secretBinding(), row.encryptedSecret)).isEqualTo("sk-test-v1");
        await().atMost(PATIENCE).untilAsserted(() -> {
            List<CredentialSnapshot> snapshots = snapshots(id);
            assertThat(snapshots).isNotEmpty();
            CredentialSnapshot last = snapshots.get(snapshots.size() - 1);
            assertThat(last.encryptedSecret()).isEqualTo(row.encryptedSecret);
            assertThat(secretBox.open(last.secretBinding(), last.encryptedSecret()))
                    .isEqualTo("sk-test-v1");
        });
    }

    @Test
    void aSnapshotStaysSmallAndPublishableHoweverManyOfItsModelsFailWithLongTexts() {
        String id = OutcomeFixtures.createCredential(
                secretBox,
                "{\"failure_policy\":{\"cooldown_enabled\":true,\"cooldown_seconds\":300}}",
                CLEAR_SECRET + UUID.randomUUID());
        Instant at = Instant.parse("2026-06-05T00:00:00Z");
        String message = "m".repeat(FailureText.MAX_MESSAGE_CHARS);
        String body = "{\"error\":\"" + "b".repeat(FailureText.MAX_RESPONSE_CHARS) + "\"}";
        int failing = 120;
        for (int i = 0; i < failing; i++) {
            Instant when = at.plusMillis(i);
            String model = "model-" + i;
            await(() -> service.apply(new CredentialEvent.TransientFailureRecorded(
                    UUID.randomUUID(), id, when, model, "upstream_status", 429, message, body)));
        }

        await().atMost(PATIENCE)
                .untilAsserted(() -> assertThat(snapshots(id))
                        .extracting(CredentialSnapshot::version)
                        .last()
                        .isEqualTo((long) failing));
        List<ConsumerRecord<String, String>> records = credentialsRecords(id);
        String published = records.get(records.size() - 1).value();
        // with the texts it would be over 1.2 MB: past the producer's limit, never published
        assertThat(published.length()).isLessThan(64 * 1024);
        assertThat(snapshots(id).get(snapshots(id).size() - 1).models())
                .hasSize(failing)
                .allSatisfy(model -> {
                    assertThat(model.lastFailureMessage()).isNull();
                    assertThat(model.lastFailureResponseJson()).isNull();
                    assertThat(model.lastFailureKind()).isEqualTo("upstream_status");
                    assertThat(model.transientFailureCount()).isEqualTo(1);
                    assertThat(model.cooldownUntil()).isAfter(at);
                });
        // the database keeps them whole for the admin API
        assertThat(OutcomeFixtures.models(id)).hasSize(failing).allSatisfy(row -> {
            assertThat(row.lastFailureMessage).hasSize(FailureText.MAX_MESSAGE_CHARS);
            assertThat(row.lastFailureResponseJson).isNotNull();
        });
        assertThat(outboxRows(id)).noneMatch(row -> row.failedAt != null);
    }

    @Test
    void aDeletedCredentialIsATombstone() {
        String id = OutcomeFixtures.createCredential(secretBox, PRIMARY_CONFIG, "sk-test-tombstone");
        await(() -> service.apply(failure(id, Instant.parse("2026-06-04T00:00:00Z"), "upstream-sol")));
        inTransaction(() -> stateOutbox.credentialDeleted(id));
        relay.trigger();

        await().atMost(PATIENCE).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> records = TestKafka.readKey(Topics.CREDENTIAL_STATE, id);
            assertThat(records).isNotEmpty();
            assertThat(records.get(records.size() - 1).value()).isNull();
            // the tombstone is signed too: a producer without the key cannot delete entries
            assertSigned(records);
        });
    }

    @Test
    void theStateTopicsAreCompacted() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrap()))) {
            for (String topic : CompactedTopics.NAMES) {
                ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                Config config =
                        admin.describeConfigs(List.of(resource)).all().get().get(resource);
                assertThat(config.get("cleanup.policy").value()).as(topic).isEqualTo("compact");
            }
        }
    }

    private static List<CredentialSnapshot> snapshots(String id) {
        return TestKafka.readKey(Topics.CREDENTIAL_STATE, id).stream()
                .filter(record -> record.value() != null)
                .map(record -> {
                    try {
                        return Json.MAPPER.readValue(record.value(), CredentialSnapshot.class);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    private static List<ConsumerRecord<String, String>> credentialsRecords(String id) {
        return TestKafka.readKey(Topics.CREDENTIAL_STATE, id);
    }

    /** The %test pair's public half, as the gateways' %test profile holds it. */
    private static final StateVerifier VERIFIER =
            StateVerifier.fromSpec("k1=MCowBQYDK2VwAyEAxjNvnsJavKodrTFRxNBuceojR4W4BORHWBaUyi3wSng=");

    private static void assertSigned(List<ConsumerRecord<String, String>> records) {
        assertThat(records)
                .isNotEmpty()
                .allSatisfy(record -> assertThat(VERIFIER.verify(
                                record.topic(),
                                record.key(),
                                record.value(),
                                header(record, StateSignature.KEY_ID_HEADER),
                                header(record, StateSignature.SIGNATURE_HEADER)))
                        .as("%s %s", record.topic(), record.key())
                        .isEqualTo(StateVerifier.Result.VALID));
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The v1 form earlier releases stored: the credential id alone as associated data, the %test key. */
    static String sealV1(String credentialId, String plaintext) throws Exception {
        byte[] key = Base64.getDecoder().decode("sDs8+xrgdjb1YeT1e7CxfOuCBybLeoNiShX0VxEUdcY=");
        byte[] nonce = new byte[12];
        new SecureRandom().nextBytes(nonce);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        cipher.updateAAD(credentialId.getBytes(StandardCharsets.UTF_8));
        byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
        return "v1:" + Base64.getEncoder().encodeToString(nonce) + ":"
                + Base64.getEncoder().encodeToString(sealed);
    }

    private static List<OutboxEntity> outboxRows(String id) {
        return OutcomeFixtures.inSession(() -> OutboxEntity.<OutboxEntity>list("messageKey", id));
    }

    /** Fails every send while {@link #failing}: the broker is unreachable. */
    static final class FlakySender extends StateTopicSender {

        final AtomicBoolean failing = new AtomicBoolean(true);
        private final StateTopicSender real;

        FlakySender(StateTopicSender real) {
            super(null, null);
            this.real = real;
        }

        @Override
        public Uni<Void> send(String topic, String key, String payload) {
            return failing.get()
                    ? Uni.createFrom().failure(new IllegalStateException("broker unreachable (test)"))
                    : real.send(topic, key, payload);
        }
    }
}
