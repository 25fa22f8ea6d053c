package io.routegateway.state.accesskey;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.routegateway.core.access.AccessKeys;
import io.routegateway.core.event.SpendSnapshot;
import io.routegateway.core.limits.Limits;
import io.routegateway.core.model.Protocol;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.pool.References;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.AccessKeyGroupEntity;
import io.routegateway.state.repository.AccessKeyGroupRepository;
import io.routegateway.state.repository.AccessKeyRepository;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.repository.TeamRepository;
import io.routegateway.state.spend.SpendReader;
import io.routegateway.state.spend.SpendRules;
import io.routegateway.state.spend.SpendView;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/**
 * AccessKeys: every write stores the row and its {@code AccessKeySnapshot} outbox row in one
 * transaction; a key with a budget also gets the {@code spend.v1} of its current window queued when
 * its limits change. A key joining a team holds the team's row {@code FOR SHARE} until it commits.
 */
@ApplicationScoped
public class AccessKeyAdminService {

    static final String KEY_PREFIX = "rk-";
    /** 24 random bytes = 32 url-safe characters after the prefix. */
    static final int KEY_RANDOM_BYTES = 24;
    /** Shown in listings: {@code rk-} plus the first four random characters. */
    static final int DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length() + 4;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final AccessKeyRepository keys;
    private final AccessKeyGroupRepository keyGroups;
    private final References references;
    private final PoolReader pool;
    private final StateOutbox outbox;
    private final AdminWrites writes;
    private final SpendReader spend;
    private final TeamRepository teams;
    private final Clock clock;

    AccessKeyAdminService(
            AccessKeyRepository keys,
            AccessKeyGroupRepository keyGroups,
            References references,
            PoolReader pool,
            StateOutbox outbox,
            AdminWrites writes,
            SpendReader spend,
            TeamRepository teams,
            Clock clock) {
        this.keys = keys;
        this.keyGroups = keyGroups;
        this.references = references;
        this.pool = pool;
        this.outbox = outbox;
        this.writes = writes;
        this.spend = spend;
        this.teams = teams;
        this.clock = clock;
    }

    public Uni<List<AccessKeyView>> list() {
        return pool.read().map(stored -> {
            Instant now = clock.instant();
            return stored.accessKeys().stream()
                    .sorted(Comparator.comparing((AccessKeyEntity row) -> row.createdAt)
                            .thenComparing(row -> row.id))
                    .map(row -> view(row, stored.scopeOf(row.id), now))
                    .toList();
        });
    }

    @WithSession
    public Uni<AccessKeyView> get(String id) {
        return existing(id).flatMap(this::view);
    }

    public Uni<CreatedAccessKey> create(JsonBody<AccessKeyInput> body) {
        return create(body, false);
    }

    /**
     * @param withinTeamLimits a team role's write: the key's limits must stay within its team's
     *     ({@link AccessKeyRules#requireWithinTeam}), checked against the team row read in this
     *     transaction
     */
    public Uni<CreatedAccessKey> create(JsonBody<AccessKeyInput> body, boolean withinTeamLimits) {
        AccessKeyRules.NewAccessKey checked = AccessKeyRules.create(body);
        Instant now = clock.instant();
        AccessKeyEntity row = new AccessKeyEntity();
        row.id = checked.id();
        row.name = checked.name();
        row.enabled = checked.enabled();
        row.expiresAt = checked.expiresAt();
        row.allowedProtocols = protocolsText(checked.allowedProtocols());
        row.allowedModels = StateRows.toTextArray(checked.allowedModels());
        row.teamId = checked.teamId();
        StateRows.writeKeyLimits(row, checked.limits());
        row.createdAt = now;
        row.updatedAt = now;
        List<String> groupIds = checked.groupIds();
        String plaintext = newKey();
        row.keyHash = AccessKeys.hash(plaintext);
        row.keyPrefix = plaintext.substring(0, DISPLAY_PREFIX_LENGTH);
        return writes.inTransaction(() -> keys.findById(row.id)
                .flatMap(taken -> {
                    if (taken != null) {
                        throw AdminException.conflict("access key " + row.id + " already exists");
                    }
                    return references.requireGroups(groupIds);
                })
                .flatMap(ok -> row.teamId == null ? Uni.createFrom().voidItem() : references.requireTeam(row.teamId))
                .flatMap(ok -> withinTeamLimits
                        ? requireWithinTeam(row.teamId, checked.limits())
                        : Uni.createFrom().voidItem())
                .flatMap(ok -> keys.persist(row))
                .flatMap(saved -> replaceScope(row.id, groupIds))
                .flatMap(ok -> outbox.accessKeyChanged(row))
                .flatMap(version -> outbox.spendRepublished(SpendSnapshot.KEY, row.id, checked.limits()))
                .map(ok -> new CreatedAccessKey(plaintext, CreatedAccessKey.NOTICE, view(row, groupIds, now))));
    }

    public Uni<AccessKeyView> update(String id, JsonBody<AccessKeyInput> body) {
        return update(id, body, false);
    }

    /** @param withinTeamLimits as for {@link #create(JsonBody, boolean)}: new limits stay within the key's team's */
    public Uni<AccessKeyView> update(String id, JsonBody<AccessKeyInput> body, boolean withinTeamLimits) {
        return writes.inTransaction(() -> keys.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("access key", id);
            }
            AccessKeyRules.Changes changes = AccessKeyRules.update(body);
            // references are checked before the row changes: the team's check is a native query,
            // before which Hibernate flushes what is dirty
            Uni<Void> references = changes.teamSent() && changes.teamId() != null
                    ? this.references.requireTeam(changes.teamId())
                    : Uni.createFrom().voidItem();
            if (changes.groupIds() != null) {
                references = references.flatMap(ok -> this.references.requireGroups(changes.groupIds()));
            }
            if (withinTeamLimits && changes.limits() != null) {
                String team = changes.teamSent() ? changes.teamId() : row.teamId;
                references = references.flatMap(ok -> requireWithinTeam(team, changes.limits()));
            }
            return references
                    .invoke(ok -> apply(row, changes))
                    .flatMap(ok -> changes.groupIds() == null
                            ? Uni.createFrom().voidItem()
                            : replaceScope(id, changes.groupIds()))
                    .flatMap(ok -> outbox.accessKeyChanged(row))
                    .flatMap(version -> changes.limits() == null
                            ? Uni.createFrom().voidItem()
                            : outbox.spendRepublished(SpendSnapshot.KEY, row.id, changes.limits()))
                    .flatMap(ok -> view(row));
        }));
    }

    private static void apply(AccessKeyEntity row, AccessKeyRules.Changes changes) {
        if (changes.name() != null) {
            row.name = changes.name();
        }
        if (changes.enabled() != null) {
            row.enabled = changes.enabled();
        }
        if (changes.expirySent()) {
            row.expiresAt = changes.expiresAt();
        }
        if (changes.allowedProtocols() != null) {
            row.allowedProtocols = protocolsText(changes.allowedProtocols());
        }
        if (changes.allowedModels() != null) {
            row.allowedModels = StateRows.toTextArray(changes.allowedModels());
        }
        if (changes.limits() != null) {
            StateRows.writeKeyLimits(row, changes.limits());
        }
        if (changes.teamSent()) {
            row.teamId = changes.teamId();
        }
    }

    /** The key's limits are within its team's (a team role's write); a key without a team has no ceiling. */
    private Uni<Void> requireWithinTeam(String teamId, Limits limits) {
        if (teamId == null) {
            return Uni.createFrom().voidItem();
        }
        return teams.findById(teamId)
                .invoke(team ->
                        AccessKeyRules.requireWithinTeam(limits, team == null ? null : StateRows.teamLimits(team)))
                .replaceWithVoid();
    }

    /** The key's spend in its current window. */
    public Uni<SpendView> spend(String id) {
        return Panache.withSession(() -> existing(id).map(StateRows::keyLimits))
                .flatMap(limits -> spend.current(new SpendRules.Subject(SpendSnapshot.KEY, id), limits));
    }

    /**
     * Deletes the key and publishes a tombstone (and its spend's): gateways forget it, requests with it
     * get {@code invalid_access_key}.
     */
    public Uni<Void> delete(String id) {
        return writes.inTransaction(() -> keys.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("access key", id);
            }
            return keyGroups
                    .delete("accessKeyId", id)
                    .flatMap(deleted -> keys.delete(row))
                    .flatMap(deleted -> outbox.accessKeyDeleted(id));
        }));
    }

    private Uni<AccessKeyEntity> existing(String id) {
        return keys.findById(id).map(row -> {
            if (row == null) {
                throw AdminException.notFound("access key", id);
            }
            return row;
        });
    }

    private Uni<AccessKeyView> view(AccessKeyEntity row) {
        return keyGroups.groupIdsOf(row.id).map(groupIds -> view(row, groupIds, clock.instant()));
    }

    private static AccessKeyView view(AccessKeyEntity row, List<String> groupIds, Instant now) {
        return AccessKeyView.of(StateRows.accessKeySnapshot(row, groupIds, now), row.createdAt, row.updatedAt, now);
    }

    private Uni<Void> replaceScope(String accessKeyId, List<String> groupIds) {
        return keyGroups.delete("accessKeyId", accessKeyId).flatMap(deleted -> {
            List<AccessKeyGroupEntity> links = new ArrayList<>();
            for (int position = 0; position < groupIds.size(); position++) {
                links.add(new AccessKeyGroupEntity(accessKeyId, groupIds.get(position), position));
            }
            // flushed now: the snapshot queued next reads the scope back
            return AdminWrites.persistAll(keyGroups, links).flatMap(ok -> keyGroups.flush());
        });
    }

    private static String protocolsText(List<Protocol> protocols) {
        return StateRows.toTextArray(protocols.stream().map(Protocol::wire).toList());
    }

    /** {@code rk-} and 32 url-safe random characters (192 bits). */
    static String newKey() {
        byte[] bytes = new byte[KEY_RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return KEY_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
