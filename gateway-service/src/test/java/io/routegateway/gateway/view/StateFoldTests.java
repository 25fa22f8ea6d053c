package io.routegateway.gateway.view;

import java.time.Instant;
import java.util.List;

import io.routegateway.core.event.AccessKeySnapshot;
import io.routegateway.core.event.CredentialSnapshot;
import io.routegateway.core.event.GroupSnapshot;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.TeamSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.BridgePolicy;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.FailurePolicy;
import io.routegateway.core.select.PoolView;
import io.routegateway.core.state.AccountState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fold of state-topic records into the view, without Kafka: what a batch holds and what it changes. */
class StateFoldTests {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void theNewestSnapshotOfACredentialInABatchWinsWhateverTheOrder() throws Exception {
        StateFold.Batch batch = new StateFold.Batch();
        assertThat(StateFold.read(batch, Topics.CREDENTIAL_STATE, "c1", json(credential("c1", 3))))
                .isNull();
        assertThat(StateFold.read(batch, Topics.CREDENTIAL_STATE, "c1", json(credential("c1", 2))))
                .isNull();
        assertThat(batch.credentials().get("c1").version()).isEqualTo(3);
        assertThat(StateFold.applied(PoolView.EMPTY, batch)
                        .credential("c1")
                        .orElseThrow()
                        .version())
                .isEqualTo(3);
    }

    @Test
    void aTombstoneRemovesTheCredentialAndALaterSnapshotInTheSameBatchBringsItBack() throws Exception {
        PoolView held = PoolView.of(List.of(credential("c1", 1), credential("c2", 1)), List.of(), List.of());
        StateFold.Batch removed = new StateFold.Batch();
        StateFold.read(removed, Topics.CREDENTIAL_STATE, "c1", json(credential("c1", 2)));
        StateFold.read(removed, Topics.CREDENTIAL_STATE, "c1", null);
        assertThat(removed.credentials()).isEmpty();
        assertThat(removed.removedCredentials()).containsExactly("c1");
        PoolView after = StateFold.applied(held, removed);
        assertThat(after.credential("c1")).isEmpty();
        assertThat(after.credential("c2")).isPresent();

        StateFold.Batch restored = new StateFold.Batch();
        StateFold.read(restored, Topics.CREDENTIAL_STATE, "c1", null);
        StateFold.read(restored, Topics.CREDENTIAL_STATE, "c1", json(credential("c1", 5)));
        assertThat(restored.removedCredentials()).isEmpty();
        assertThat(StateFold.applied(after, restored)
                        .credential("c1")
                        .orElseThrow()
                        .version())
                .isEqualTo(5);
    }

    @Test
    void anOlderOrEqualVersionThanTheViewHoldsChangesNothing() throws Exception {
        PoolView held = PoolView.of(List.of(credential("c1", 4)), List.of(group("g1", 4)), List.of(key("k1", 4)));
        StateFold.Batch batch = new StateFold.Batch();
        StateFold.read(batch, Topics.CREDENTIAL_STATE, "c1", json(credential("c1", 4)));
        StateFold.read(batch, Topics.GROUPS, "g1", json(group("g1", 3)));
        StateFold.read(batch, Topics.ACCESS_KEYS, "k1", json(key("k1", 4)));
        PoolView after = StateFold.applied(held, batch);
        assertThat(after.credential("c1").orElseThrow().name()).isEqualTo("name-c1-4");
        assertThat(after.group("g1").orElseThrow().version()).isEqualTo(4);
        assertThat(after.accessKey("k1").orElseThrow().version()).isEqualTo(4);

        StateFold.Batch newer = new StateFold.Batch();
        StateFold.read(newer, Topics.GROUPS, "g1", json(group("g1", 5)));
        StateFold.read(newer, Topics.ACCESS_KEYS, "k1", json(key("k1", 6)));
        PoolView moved = StateFold.applied(held, newer);
        assertThat(moved.group("g1").orElseThrow().version()).isEqualTo(5);
        assertThat(moved.accessKey("k1").orElseThrow().version()).isEqualTo(6);
    }

    @Test
    void groupAndAccessKeyTombstonesRemoveThemInRecordOrder() throws Exception {
        PoolView held = PoolView.of(List.of(), List.of(group("g1", 1)), List.of(key("k1", 1)));
        StateFold.Batch batch = new StateFold.Batch();
        StateFold.read(batch, Topics.GROUPS, "g1", null);
        StateFold.read(batch, Topics.ACCESS_KEYS, "k1", null);
        StateFold.read(batch, Topics.ACCESS_KEYS, "k1", json(key("k1", 2)));
        assertThat(batch.others()).hasSize(3);
        assertThat(StateFold.topicOf(batch.others().get(0))).isEqualTo(Topics.GROUPS);
        assertThat(StateFold.topicOf(batch.others().get(1))).isEqualTo(Topics.ACCESS_KEYS);
        PoolView after = StateFold.applied(held, batch);
        assertThat(after.group("g1")).isEmpty();
        assertThat(after.accessKey("k1").orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void theNewestSettingsOfABatchAreTakenAndASettingsTombstoneKeepsThem() throws Exception {
        StateFold.Batch batch = new StateFold.Batch();
        assertThat(batch.newestSettings()).isNull();
        StateFold.read(batch, Topics.SETTINGS, RuntimeSettingsSnapshot.KEY, json(settings(7)));
        StateFold.read(batch, Topics.SETTINGS, RuntimeSettingsSnapshot.KEY, json(settings(9)));
        StateFold.read(batch, Topics.SETTINGS, RuntimeSettingsSnapshot.KEY, json(settings(8)));
        assertThat(StateFold.read(batch, Topics.SETTINGS, RuntimeSettingsSnapshot.KEY, null))
                .isNull();
        assertThat(batch.newestSettings().version()).isEqualTo(9);
        assertThat(StateFold.topicOf(batch.others().get(0))).isEqualTo(Topics.SETTINGS);
        // settings are held apart, the view itself is unchanged
        assertThat(StateFold.applied(PoolView.EMPTY, batch).credentials()).isEmpty();
    }

    @Test
    void aRecordThatNamesNoEntryIsNoIdAndAnUnreadableOneThrows() throws Exception {
        StateFold.Batch batch = new StateFold.Batch();
        assertThat(StateFold.read(batch, Topics.CREDENTIAL_STATE, " ", null)).isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, Topics.GROUPS, null, null)).isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, Topics.ACCESS_KEYS, "", null)).isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, Topics.CREDENTIAL_STATE, "c1", json(credential(" ", 1))))
                .isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, Topics.GROUPS, "g1", json(group("", 1))))
                .isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, "route.unknown", "x", "{}")).isNull();
        assertThat(batch.credentials()).isEmpty();
        assertThat(batch.removedCredentials()).isEmpty();
        assertThat(batch.others()).isEmpty();
        assertThatThrownBy(() -> StateFold.read(batch, Topics.GROUPS, "g1", "{not json"))
                .isInstanceOf(Exception.class);
    }

    @Test
    void teamsAndSpendAreReadInOrderHeldApartFromThePoolAndMoveOnlyForward() throws Exception {
        StateFold.Batch batch = new StateFold.Batch();
        assertThat(StateFold.read(batch, Topics.TEAMS, "t1", json(team("t1", 2, 5))))
                .isNull();
        assertThat(StateFold.read(batch, Topics.TEAMS, "t1", json(team("t1", 1, 9))))
                .isNull();
        assertThat(StateFold.read(batch, Topics.SPEND, "key:k1", json(spend("key", "k1", 3, 700))))
                .isNull();
        assertThat(StateFold.read(batch, Topics.TEAMS, "t2", null)).isNull();
        assertThat(batch.others()).hasSize(4).allMatch(StateFold::isLimits);
        assertThat(StateFold.topicOf(batch.others().get(0))).isEqualTo(Topics.TEAMS);
        assertThat(StateFold.topicOf(batch.others().get(2))).isEqualTo(Topics.SPEND);
        assertThat(StateFold.applied(PoolView.EMPTY, batch)).isSameAs(PoolView.EMPTY);

        LimitsView limits = new LimitsView();
        limits.apply(team("t2", 1, 1));
        for (Object change : batch.others()) {
            limits.apply(change);
        }
        assertThat(limits.team("t1").weight())
                .as("version 2 stays, version 1 came after")
                .isEqualTo(5);
        assertThat(limits.team("t2")).as("its tombstone removed it").isNull();
        assertThat(limits.weight("t2")).isEqualTo(TeamSnapshot.DEFAULT_WEIGHT);
        assertThat(limits.spend("key", "k1").spendMicros()).isEqualTo(700);
        assertThat(limits.apply(spend("key", "k1", 2, 1))).isFalse();
        assertThat(limits.apply(new StateFold.Removed(Topics.SPEND, "key:k1"))).isTrue();
        assertThat(limits.spend("key", "k1")).isNull();
    }

    @Test
    void aSpendOfNoKnownSubjectOrATeamWithoutIdNamesNoEntry() throws Exception {
        StateFold.Batch batch = new StateFold.Batch();
        assertThat(StateFold.read(batch, Topics.SPEND, "x:k1", json(spend("group", "k1", 1, 1))))
                .isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, Topics.SPEND, "key:", json(spend("key", " ", 1, 1))))
                .isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, Topics.TEAMS, "t1", json(team(" ", 1, 1))))
                .isEqualTo(StateFold.NO_ID);
        assertThat(StateFold.read(batch, Topics.TEAMS, " ", null)).isEqualTo(StateFold.NO_ID);
        assertThat(batch.others()).isEmpty();
        assertThatThrownBy(() -> StateFold.read(batch, Topics.SPEND, "key:k1", "{\"version\":\"x\"}"))
                .isInstanceOf(Exception.class);
    }

    @Test
    void anUnknownChangeIsRefused() {
        assertThatThrownBy(() -> StateFold.appliedOther(PoolView.EMPTY, "a string"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String json(Object snapshot) throws Exception {
        return Json.MAPPER.writeValueAsString(snapshot);
    }

    private static CredentialSnapshot credential(String id, long version) {
        return new CredentialSnapshot(
                id,
                version,
                "name-" + id + "-" + version,
                Platform.OPENAI,
                CredentialKind.API,
                "https://upstream.test/" + id,
                "sealed",
                List.of(),
                new FailurePolicy(2, 20, 10, true, 10, true),
                true,
                false,
                true,
                0,
                WeightMode.AUTO,
                50,
                null,
                List.of(),
                AccountState.HEALTHY,
                List.of(),
                NOW,
                null,
                null,
                null);
    }

    private static GroupSnapshot group(String id, long version) {
        return new GroupSnapshot(
                id,
                version,
                "group-" + id,
                true,
                WeightMode.AUTO,
                100,
                List.of(),
                false,
                BridgePolicy.NATIVE_FIRST,
                NOW);
    }

    private static AccessKeySnapshot key(String id, long version) {
        return new AccessKeySnapshot(
                id, version, "key-" + id, "hash-" + id, "rk-abc", true, null, List.of(), List.of(), List.of(), NOW);
    }

    private static TeamSnapshot team(String id, long version, int weight) {
        return new TeamSnapshot(id, version, "team-" + id, new Limits(10, null, null, null, null), weight, NOW);
    }

    private static SpendSnapshot spend(String subject, String id, long version, long micros) {
        return new SpendSnapshot(subject, id, version, NOW, NOW.plusSeconds(3600), micros, 1, 2, 3, NOW, NOW);
    }

    private static RuntimeSettingsSnapshot settings(long version) {
        return new RuntimeSettingsSnapshot(version, 0, 60, 100, NOW);
    }
}
