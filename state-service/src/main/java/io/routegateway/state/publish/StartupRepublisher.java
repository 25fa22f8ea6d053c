package io.routegateway.state.publish;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Sort;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.VertxContextSupport;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.AccessKeyGroupEntity;
import io.routegateway.state.repository.AccessKeyGroupRepository;
import io.routegateway.state.repository.AccessKeyRepository;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.CredentialModelRepository;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.repository.GroupCredentialEntity;
import io.routegateway.state.repository.GroupCredentialRepository;
import io.routegateway.state.repository.GroupEntity;
import io.routegateway.state.repository.GroupRepository;
import io.routegateway.state.repository.RuntimeSettingRepository;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.repository.TeamEntity;
import io.routegateway.state.repository.TeamRepository;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

/**
 * At start-up: prepares the compacted topics, queues a fresh snapshot of every credential, access
 * key, group and team, the spend of every key and team with a budget, and of the runtime settings (so a new reader can build its whole view from the
 * topics alone, even if compaction or retention lost something), then starts the relay. Snapshots
 * keep their current versions, except the runtime settings, whose snapshot takes the next value of
 * their version sequence (same content, higher version: harmless to a reader).
 * Rows are read {@code FOR SHARE} (credentials {@code FOR UPDATE}, see below): a concurrent writer's newer snapshot can never be queued before
 * this older one. If the broker or the database is unreachable at start-up, the service still
 * starts and the preparation is retried every 10 s; until then state changes wait in the outbox.
 *
 * <p>The same transaction re-seals every secret still in the {@code v1:} form (bound to the
 * credential id alone) under its {@code v2:} binding (id, platform, base URL), so the snapshots it
 * queues carry only secrets the gateways open without accepting v1. A v1 value that does not open
 * (another key) is left as it is and logged by id.
 */
@ApplicationScoped
public class StartupRepublisher {

    private static final Logger LOG = Logger.getLogger(StartupRepublisher.class);

    private final CompactedTopics topics;
    private final CredentialRepository credentials;
    private final CredentialModelRepository models;
    private final GroupCredentialRepository groupCredentials;
    private final GroupRepository groups;
    private final AccessKeyRepository accessKeys;
    private final AccessKeyGroupRepository accessKeyGroups;
    private final RuntimeSettingRepository settings;
    private final TeamRepository teams;
    private final StateOutbox stateOutbox;
    private final OutboxRelay relay;
    private final SecretBox secretBox;
    private final Clock clock;
    // deliberately concurrent: set once by start-up or by the retry job
    private final AtomicBoolean prepared = new AtomicBoolean();

    public StartupRepublisher(
            CompactedTopics topics,
            CredentialRepository credentials,
            CredentialModelRepository models,
            GroupCredentialRepository groupCredentials,
            GroupRepository groups,
            AccessKeyRepository accessKeys,
            AccessKeyGroupRepository accessKeyGroups,
            RuntimeSettingRepository settings,
            TeamRepository teams,
            StateOutbox stateOutbox,
            OutboxRelay relay,
            SecretBox secretBox,
            Clock clock) {
        this.topics = topics;
        this.credentials = credentials;
        this.models = models;
        this.groupCredentials = groupCredentials;
        this.groups = groups;
        this.accessKeys = accessKeys;
        this.accessKeyGroups = accessKeyGroups;
        this.settings = settings;
        this.teams = teams;
        this.stateOutbox = stateOutbox;
        this.relay = relay;
        this.secretBox = secretBox;
        this.clock = clock;
    }

    void onStart(@Observes StartupEvent event) {
        prepare();
    }

    /**
     * Retries the preparation until it succeeded once: a broker that is down at start-up delays
     * publication (rows wait in the outbox) instead of stopping the service.
     */
    @Scheduled(
            identity = "state-publication-prepare",
            every = "10s",
            delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void retryPreparation() {
        if (!prepared.get()) {
            prepare();
        }
    }

    private void prepare() {
        try {
            topics.ensure();
            int queued = VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(this::queueEverything));
            LOG.infof("Queued %d snapshots for republication", queued);
            prepared.set(true);
            relay.start();
        } catch (Throwable e) {
            if (e instanceof Error error) {
                throw error;
            }
            LOG.errorf("Could not prepare state publication, retrying in 10 s: %s", e.toString());
        }
    }

    Uni<Integer> queueEverything() {
        Instant now = clock.instant();
        // locked in id order: two replicas starting at once queue behind each other instead of deadlocking
        return credentials
                .findAll(Sort.by("id"))
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list()
                .invoke(this::resealV1)
                .flatMap(credentialRows -> models.listAll()
                        .flatMap(modelRows -> groupCredentials
                                .listAll()
                                .flatMap(memberships -> queueCredentials(credentialRows, modelRows, memberships, now))))
                .flatMap(credentialCount -> groups.findAll()
                        .withLock(LockModeType.PESSIMISTIC_READ)
                        .list()
                        .flatMap(groupRows -> queueGroups(groupRows, now))
                        .map(groupCount -> credentialCount + groupCount))
                .flatMap(count -> teams.findAll(Sort.by("id"))
                        .withLock(LockModeType.PESSIMISTIC_READ)
                        .list()
                        .flatMap(teamRows -> queueTeams(teamRows, now))
                        .map(teamCount -> count + teamCount))
                // spend windows are locked in the usage batches' order: keys, then teams
                .flatMap(count -> accessKeys
                        .findAll(Sort.by("id"))
                        .withLock(LockModeType.PESSIMISTIC_READ)
                        .list()
                        .flatMap(keyRows -> accessKeyGroups
                                .listAll()
                                .flatMap(scopes -> queueAccessKeys(keyRows, scopes, now))
                                .flatMap(keyCount -> queueKeySpend(keyRows).map(spent -> keyCount + spent)))
                        .map(keyCount -> count + keyCount))
                .flatMap(count -> teams.findAll(Sort.by("id"))
                        .list()
                        .flatMap(this::queueTeamSpend)
                        .map(spent -> count + spent))
                .flatMap(count -> settings.findAll()
                        .withLock(LockModeType.PESSIMISTIC_READ)
                        .list()
                        .flatMap(locked -> settings.current())
                        .flatMap(stateOutbox::settingsChanged)
                        .map(version -> count + 1));
    }

    /** Re-seals v1 secrets of the managed rows; the transaction writes them. */
    private void resealV1(List<CredentialEntity> rows) {
        int resealed = 0;
        for (CredentialEntity row : rows) {
            if (!SecretBox.isV1(row.encryptedSecret)) {
                continue;
            }
            try {
                row.encryptedSecret =
                        secretBox.seal(row.secretBinding(), secretBox.openV1(row.id, row.encryptedSecret));
                resealed++;
            } catch (IllegalArgumentException e) {
                LOG.warnf(
                        "The v1 secret of credential %s does not open with the configured key; left as it is", row.id);
            }
        }
        if (resealed > 0) {
            LOG.infof("Re-sealed %d v1 secrets under their platform and base URL", resealed);
        }
    }

    private Uni<Integer> queueCredentials(
            List<CredentialEntity> rows,
            List<CredentialModelEntity> modelRows,
            List<GroupCredentialEntity> memberships,
            Instant now) {
        Map<String, List<CredentialModelEntity>> modelsById = new HashMap<>();
        for (CredentialModelEntity model : modelRows) {
            modelsById
                    .computeIfAbsent(model.routeCredentialId, id -> new ArrayList<>())
                    .add(model);
        }
        Map<String, List<String>> groupIdsById = new HashMap<>();
        for (GroupCredentialEntity membership : memberships) {
            groupIdsById
                    .computeIfAbsent(membership.credentialId, id -> new ArrayList<>())
                    .add(membership.groupId);
        }
        return inOrder(
                rows,
                row -> stateOutbox.queueCredential(
                        row,
                        StateRows.health(row, modelsById.getOrDefault(row.id, List.of())),
                        sorted(groupIdsById.getOrDefault(row.id, List.of())),
                        now));
    }

    private Uni<Integer> queueGroups(List<GroupEntity> rows, Instant now) {
        return inOrder(rows, row -> stateOutbox.queueGroup(row, now));
    }

    private Uni<Integer> queueTeams(List<TeamEntity> rows, Instant now) {
        return inOrder(rows, row -> stateOutbox.queueTeam(row, now));
    }

    private Uni<Integer> queueTeamSpend(List<TeamEntity> rows) {
        return inOrder(
                rows.stream().filter(row -> row.maxBudget != null).toList(),
                row -> stateOutbox.spendRepublished(SpendSnapshot.TEAM, row.id, StateRows.teamLimits(row)));
    }

    /** The spend of every key with a budget: its window's row is locked the way a usage batch locks it. */
    private Uni<Integer> queueKeySpend(List<AccessKeyEntity> rows) {
        return inOrder(
                rows.stream().filter(row -> row.maxBudget != null).toList(),
                row -> stateOutbox.spendRepublished(SpendSnapshot.KEY, row.id, StateRows.keyLimits(row)));
    }

    private Uni<Integer> queueAccessKeys(List<AccessKeyEntity> rows, List<AccessKeyGroupEntity> scopes, Instant now) {
        Map<String, List<AccessKeyGroupEntity>> scopeById = new HashMap<>();
        for (AccessKeyGroupEntity scope : scopes) {
            scopeById
                    .computeIfAbsent(scope.accessKeyId, id -> new ArrayList<>())
                    .add(scope);
        }
        return inOrder(rows, row -> {
            List<String> groupIds = scopeById.getOrDefault(row.id, List.of()).stream()
                    .sorted((left, right) -> left.position != right.position
                            ? Integer.compare(left.position, right.position)
                            : left.groupId.compareTo(right.groupId))
                    .map(scope -> scope.groupId)
                    .toList();
            return stateOutbox.queueAccessKey(row, groupIds, now);
        });
    }

    /** One session runs one statement at a time: queue the rows one after the other. */
    private static <T> Uni<Integer> inOrder(List<T> rows, Function<T, Uni<Void>> queue) {
        return Multi.createFrom()
                .iterable(rows)
                .onItem()
                .transformToUniAndConcatenate(row -> queue.apply(row))
                .collect()
                .last()
                .replaceWith(rows.size());
    }

    private static List<String> sorted(List<String> values) {
        return values.stream().sorted().toList();
    }
}
