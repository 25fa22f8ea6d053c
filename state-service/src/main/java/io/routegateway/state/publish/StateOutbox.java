package io.routegateway.state.publish;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.event.RuntimeSettingsSnapshot;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.event.Topics;
import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.policy.RuntimeSettings;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.AccessKeyGroupRepository;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelRepository;
import io.routegateway.state.repository.GroupCredentialRepository;
import io.routegateway.state.repository.GroupEntity;
import io.routegateway.state.repository.OutboxEntity;
import io.routegateway.state.repository.OutboxRepository;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.repository.TeamEntity;
import io.routegateway.state.spend.SpendRules;
import io.routegateway.state.spend.SpendZone;
import io.smallrye.mutiny.Uni;

/**
 * Queues snapshots for the compacted topics inside the caller's transaction: a state change and
 * its outbox row commit together or not at all, and {@link OutboxRelay} publishes the row after the
 * commit. Every method must run inside a Hibernate Reactive transaction ({@code @WithTransaction} or
 * {@code Panache.withTransaction}).
 *
 * <p>The {@code *Changed} methods take a row the caller locked with {@code findForUpdate} before
 * changing it: the lock orders the writers of one key, so versions and outbox ids of one key grow
 * together and the last message of a key on its topic is always the newest state.
 */
@ApplicationScoped
public class StateOutbox {

    private final OutboxRepository outbox;
    private final CredentialModelRepository models;
    private final GroupCredentialRepository groupCredentials;
    private final AccessKeyGroupRepository accessKeyGroups;
    private final SpendZone spendZone;
    private final Clock clock;

    public StateOutbox(
            OutboxRepository outbox,
            CredentialModelRepository models,
            GroupCredentialRepository groupCredentials,
            AccessKeyGroupRepository accessKeyGroups,
            SpendZone spendZone,
            Clock clock) {
        this.outbox = outbox;
        this.models = models;
        this.groupCredentials = groupCredentials;
        this.accessKeyGroups = accessKeyGroups;
        this.spendZone = spendZone;
        this.clock = clock;
    }

    /**
     * The credential changed (configuration, pool membership or health): bumps {@code
     * state_version} and {@code updated_at}, flushes the row and queues its snapshot.
     *
     * @param locked the row, loaded with {@code CredentialRepository.findForUpdate} before it was
     *     changed
     * @return the new state version
     */
    public Uni<Long> credentialChanged(CredentialEntity locked) {
        return models.listForCredential(locked.id)
                .flatMap(rows -> credentialChanged(locked, StateRows.health(locked, rows)));
    }

    /** {@link #credentialChanged(CredentialEntity)} when the caller already holds the new health. */
    public Uni<Long> credentialChanged(CredentialEntity locked, CredentialHealth health) {
        return groupCredentials
                .groupIdsOf(locked.id)
                .flatMap(groupIds -> queueCredentialChange(locked, health, groupIds))
                .map(ignored -> locked.stateVersion);
    }

    /**
     * {@link #credentialChanged(CredentialEntity, CredentialHealth)} when the caller also read the
     * credential's group ids under its lock, returning the queued row: once the transaction
     * committed, the caller hands it to {@link OutboxRelay#publishCommitted}.
     */
    public Uni<OutboxEntity> queueCredentialChange(
            CredentialEntity locked, CredentialHealth health, List<String> groupIds) {
        return queueCredentialChange(locked, health, groupIds, null);
    }

    /**
     * {@link #queueCredentialChange(CredentialEntity, CredentialHealth, List)} of a change an outcome
     * caused: the snapshot carries {@code outcomeSentAt}, the outcome record's timestamp (null: none),
     * so the gateways can time the outcome's way to their views.
     */
    public Uni<OutboxEntity> queueCredentialChange(
            CredentialEntity locked, CredentialHealth health, List<String> groupIds, Instant outcomeSentAt) {
        Instant now = clock.instant();
        locked.stateVersion++;
        locked.updatedAt = now;
        return queueRow(
                Topics.CREDENTIAL_STATE,
                locked.id,
                json(StateRows.publishedSnapshot(locked, health, groupIds, now, outcomeSentAt)));
    }

    /** The credential was deleted: a tombstone for its key. */
    public Uni<Void> credentialDeleted(String credentialId) {
        return queue(Topics.CREDENTIAL_STATE, credentialId, null);
    }

    /**
     * The group changed (its own fields; membership changes are {@link #credentialChanged} of each
     * credential that joined or left): bumps {@code version} and queues its snapshot.
     */
    public Uni<Long> groupChanged(GroupEntity locked) {
        Instant now = clock.instant();
        locked.version++;
        locked.updatedAt = now;
        return queueGroup(locked, now).replaceWith(locked.version);
    }

    /**
     * The group was deleted: a tombstone. Its memberships cascade away, so the caller also reports
     * {@link #credentialChanged} for its former members and {@link #accessKeyChanged} for the keys
     * that had it in scope.
     */
    public Uni<Void> groupDeleted(String groupId) {
        return queue(Topics.GROUPS, groupId, null);
    }

    /** The access key or its scope changed: bumps {@code version} and queues its snapshot. */
    public Uni<Long> accessKeyChanged(AccessKeyEntity locked) {
        Instant now = clock.instant();
        locked.version++;
        locked.updatedAt = now;
        return queueAccessKey(locked, now).replaceWith(locked.version);
    }

    /** The access key was deleted: a tombstone, and one for its spend. */
    public Uni<Void> accessKeyDeleted(String accessKeyId) {
        return queue(Topics.ACCESS_KEYS, accessKeyId, null)
                .flatMap(ok -> queue(Topics.SPEND, SpendSnapshot.recordKey(SpendSnapshot.KEY, accessKeyId), null));
    }

    /** The team changed: bumps {@code version} and queues its snapshot. */
    public Uni<Long> teamChanged(TeamEntity locked) {
        Instant now = clock.instant();
        locked.version++;
        locked.updatedAt = now;
        return queueTeam(locked, now).replaceWith(locked.version);
    }

    /** The team was deleted (it owned no keys): a tombstone, and one for its spend. */
    public Uni<Void> teamDeleted(String teamId) {
        return queue(Topics.TEAMS, teamId, null)
                .flatMap(ok -> queue(Topics.SPEND, SpendSnapshot.recordKey(SpendSnapshot.TEAM, teamId), null));
    }

    /**
     * Queues the {@code spend.v1} snapshot of the subject's current window when its limits hold a
     * budget (nothing otherwise): after a write that gave it a budget or changed its window, and at
     * start-up. The window's row is created if absent and locked first, the way a usage batch locks it,
     * so a batch committing meanwhile is either in this snapshot or queued after it with a higher
     * version.
     *
     * @param kind {@link SpendSnapshot#KEY} or {@link SpendSnapshot#TEAM}
     */
    public Uni<Void> spendRepublished(String kind, String subjectId, Limits limits) {
        if (limits.maxBudget() == null) {
            return Uni.createFrom().voidItem();
        }
        Instant now = clock.instant();
        SpendRules.Subject subject = new SpendRules.Subject(kind, subjectId);
        SpendRules.Window window = SpendRules.window(limits, now, spendZone.zone());
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery(LOCK_WINDOW)
                        .setParameter("subject", kind)
                        .setParameter("subjectId", subjectId)
                        .setParameter("duration", window.duration())
                        .setParameter("windowStart", window.start())
                        .setParameter("windowEnd", window.end())
                        .setParameter("now", now)
                        .executeUpdate()
                        .flatMap(locked -> session.createNativeQuery(READ_WINDOW, Object[].class)
                                .setParameter("subject", kind)
                                .setParameter("subjectId", subjectId)
                                .setParameter("duration", window.duration())
                                .setParameter("windowStart", window.start())
                                .getSingleResult())
                        .flatMap(row -> session.createNativeQuery("SELECT nextval('spend_version_seq')")
                                .getSingleResult()
                                .flatMap(version -> {
                                    SpendRules.Totals totals = new SpendRules.Totals(
                                            subject,
                                            window,
                                            number(row[0]),
                                            number(row[1]),
                                            number(row[2]),
                                            number(row[3]),
                                            number(row[4]),
                                            number(row[5]),
                                            number(row[6]),
                                            number(row[7]),
                                            Instant.EPOCH.plus(number(row[8]), ChronoUnit.MICROS));
                                    return queue(
                                            Topics.SPEND,
                                            subject.recordKey(),
                                            json(SpendRules.snapshot(totals, ((Number) version).longValue(), now)));
                                })));
    }

    /** Creates the window's row if absent and locks it (an update that changes nothing). */
    private static final String LOCK_WINDOW = "INSERT INTO spend_windows (subject, subject_id, duration, window_start,"
            + " window_end, as_of, updated_at) VALUES (:subject, :subjectId, :duration, :windowStart,"
            + " CAST(:windowEnd AS timestamptz), :windowStart, :now)"
            + " ON CONFLICT (subject, subject_id, duration, window_start) DO UPDATE SET updated_at = spend_windows.updated_at";

    private static final String READ_WINDOW = "SELECT spend_micros, requests, input_tokens, output_tokens,"
            + " cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, reasoning_tokens, (extract(epoch from as_of) * 1000000)::bigint"
            + " FROM spend_windows WHERE subject = :subject AND subject_id = :subjectId AND duration = :duration"
            + " AND window_start = :windowStart";

    private static long number(Object value) {
        return ((Number) value).longValue();
    }

    /**
     * The runtime settings changed (or are republished at start-up): takes the next value of {@code
     * runtime_settings_version_seq} and queues the snapshot of what the gateways apply (the model
     * prices too: the gateways price closed requests against budgets with them). The caller holds the {@code runtime_settings} row locks ({@code FOR UPDATE} to
     * write, {@code FOR SHARE} to republish), so versions and outbox ids grow together.
     *
     * @return the snapshot's version
     */
    public Uni<Long> settingsChanged(RuntimeSettings settings) {
        return Panache.getSession()
                .flatMap(session -> session.createNativeQuery("SELECT nextval('runtime_settings_version_seq')")
                        .getSingleResult())
                .flatMap(next -> {
                    long version = ((Number) next).longValue();
                    RuntimeSettingsSnapshot snapshot = new RuntimeSettingsSnapshot(
                            version,
                            settings.blacklistThreshold(),
                            settings.affinityTtlSeconds(),
                            settings.affinityCapacity(),
                            clock.instant(),
                            settings.modelPrices().toJson());
                    return queue(Topics.SETTINGS, RuntimeSettingsSnapshot.KEY, json(snapshot))
                            .replaceWith(version);
                });
    }

    /** Queues the current snapshot without a new version (start-up republication). */
    Uni<Void> queueCredential(CredentialEntity row, CredentialHealth health, Instant now) {
        return groupCredentials.groupIdsOf(row.id).flatMap(groupIds -> queueCredential(row, health, groupIds, now));
    }

    Uni<Void> queueCredential(CredentialEntity row, CredentialHealth health, List<String> groupIds, Instant now) {
        return queue(
                Topics.CREDENTIAL_STATE, row.id, json(StateRows.publishedSnapshot(row, health, groupIds, now, null)));
    }

    Uni<Void> queueGroup(GroupEntity row, Instant now) {
        return queue(Topics.GROUPS, row.id, json(StateRows.groupSnapshot(row, now)));
    }

    Uni<Void> queueTeam(TeamEntity row, Instant now) {
        return queue(Topics.TEAMS, row.id, json(StateRows.teamSnapshot(row, now)));
    }

    Uni<Void> queueAccessKey(AccessKeyEntity row, Instant now) {
        return accessKeyGroups.groupIdsOf(row.id).flatMap(groupIds -> queueAccessKey(row, groupIds, now));
    }

    Uni<Void> queueAccessKey(AccessKeyEntity row, List<String> groupIds, Instant now) {
        return queue(Topics.ACCESS_KEYS, row.id, json(StateRows.accessKeySnapshot(row, groupIds, now)));
    }

    private Uni<Void> queue(String topic, String key, String payload) {
        return queueRow(topic, key, payload).replaceWithVoid();
    }

    private Uni<OutboxEntity> queueRow(String topic, String key, String payload) {
        return outbox.persist(new OutboxEntity(topic, key, payload, clock.instant()));
    }

    private static String json(Object snapshot) {
        return Json.write(snapshot);
    }
}
