package io.routegateway.state.group;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.routegateway.core.model.WeightMode;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.pool.RowLocks;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.AccessKeyEntity;
import io.routegateway.state.repository.AccessKeyGroupRepository;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.GroupCredentialEntity;
import io.routegateway.state.repository.GroupCredentialRepository;
import io.routegateway.state.repository.GroupEntity;
import io.routegateway.state.repository.GroupRepository;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/**
 * Groups and their pools. A group write enqueues its {@code GroupSnapshot}; a membership change also
 * enqueues the snapshot of every credential that joined or left, because {@code group_ids} is part of
 * {@code CredentialSnapshot}. All in one transaction.
 */
@ApplicationScoped
public class GroupAdminService {

    private final GroupRepository groups;
    private final GroupCredentialRepository members;
    private final AccessKeyGroupRepository keyGroups;
    private final RowLocks locks;
    private final PoolReader pool;
    private final StateOutbox outbox;
    private final AdminWrites writes;
    private final Clock clock;

    GroupAdminService(
            GroupRepository groups,
            GroupCredentialRepository members,
            AccessKeyGroupRepository keyGroups,
            RowLocks locks,
            PoolReader pool,
            StateOutbox outbox,
            AdminWrites writes,
            Clock clock) {
        this.groups = groups;
        this.members = members;
        this.keyGroups = keyGroups;
        this.locks = locks;
        this.pool = pool;
        this.outbox = outbox;
        this.writes = writes;
        this.clock = clock;
    }

    public Uni<List<GroupView>> list() {
        return pool.read()
                .map(stored -> stored.groups().stream()
                        .sorted(Comparator.comparing((GroupEntity row) -> row.createdAt)
                                .thenComparing(row -> row.id))
                        .map(row -> view(row, stored.credentialIdsOf(row.id)))
                        .toList());
    }

    @WithSession
    public Uni<GroupView> get(String id) {
        return groups.findById(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("group", id);
            }
            return view(row);
        });
    }

    public Uni<GroupView> create(JsonBody<GroupInput> body) {
        GroupRules.NewGroup checked = GroupRules.create(body);
        Instant now = clock.instant();
        GroupEntity row = new GroupEntity();
        row.id = checked.id();
        row.name = checked.name();
        row.enabled = checked.enabled();
        row.weightMode = checked.weightMode().wire();
        row.weight = checked.weight();
        row.exposedModels = StateRows.toTextArray(checked.exposedModels());
        row.affinityEnabled = checked.affinityEnabled();
        row.bridging = checked.bridging().wire();
        row.createdAt = now;
        row.updatedAt = now;
        List<String> credentialIds = checked.credentialIds();
        return writes.inTransaction(() -> groups.findById(row.id)
                .flatMap(taken -> {
                    if (taken != null) {
                        throw AdminException.conflict("group " + row.id + " already exists");
                    }
                    return locks.credentials(credentialIds);
                })
                .call(joined -> requireRoomFor(credentialIds))
                .flatMap(joined -> groups.persist(row)
                        .flatMap(saved -> AdminWrites.persistAll(
                                members,
                                credentialIds.stream()
                                        .map(credentialId -> new GroupCredentialEntity(row.id, credentialId))
                                        .toList()))
                        .flatMap(ok -> members.flush())
                        .flatMap(flushed -> outbox.groupChanged(row))
                        .flatMap(version -> credentialsChanged(joined)))
                .flatMap(ok -> view(row)));
    }

    public Uni<GroupView> update(String id, JsonBody<GroupInput> body) {
        return writes.inTransaction(() -> groups.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("group", id);
            }
            GroupRules.Changes changes = GroupRules.update(WeightMode.fromWire(row.weightMode), row.weight, body);
            if (changes.name() != null) {
                row.name = changes.name();
            }
            if (changes.enabled() != null) {
                row.enabled = changes.enabled();
            }
            row.weightMode = changes.weight().mode().wire();
            row.weight = changes.weight().weight();
            if (changes.exposedModels() != null) {
                row.exposedModels = StateRows.toTextArray(changes.exposedModels());
            }
            if (changes.affinityEnabled() != null) {
                row.affinityEnabled = changes.affinityEnabled();
            }
            if (changes.bridging() != null) {
                row.bridging = changes.bridging().wire();
            }
            Uni<Void> pool = Uni.createFrom().voidItem();
            if (changes.credentialIds() != null) {
                pool = replacePool(row.id, changes.credentialIds());
            }
            return pool.flatMap(ok -> outbox.groupChanged(row)).flatMap(version -> view(row));
        }));
    }

    /**
     * Deletes the group: its members' snapshots lose the group id and every AccessKey that listed
     * it loses it from its scope, all republished in the same transaction.
     */
    public Uni<Void> delete(String id) {
        return writes.inTransaction(() -> groups.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("group", id);
            }
            return members.credentialIdsOf(id)
                    .flatMap(memberIds -> locks.credentials(memberIds))
                    .flatMap(formerMembers -> keyGroups
                            .list("groupId", id)
                            .flatMap(links -> locks.accessKeys(
                                    links.stream().map(link -> link.accessKeyId).toList()))
                            .flatMap(keys -> members.delete("groupId", id)
                                    .flatMap(deleted -> keyGroups.delete("groupId", id))
                                    .flatMap(deleted -> groups.delete(row))
                                    .flatMap(deleted -> groups.flush())
                                    .flatMap(flushed -> outbox.groupDeleted(id))
                                    .flatMap(ok -> credentialsChanged(formerMembers))
                                    .flatMap(ok -> accessKeysChanged(keys))));
        }));
    }

    /** Republishes each credential (one reactive session runs one query at a time). */
    private Uni<Void> credentialsChanged(List<CredentialEntity> locked) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (CredentialEntity row : locked) {
            chain = chain.flatMap(ok -> outbox.credentialChanged(row)).replaceWithVoid();
        }
        return chain;
    }

    private Uni<Void> accessKeysChanged(List<AccessKeyEntity> locked) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (AccessKeyEntity row : locked) {
            chain = chain.flatMap(ok -> outbox.accessKeyChanged(row)).replaceWithVoid();
        }
        return chain;
    }

    /** Replaces the pool; every credential that joined or left is locked and republished. */
    private Uni<Void> replacePool(String groupId, List<String> wanted) {
        return members.list("groupId", groupId).flatMap(current -> {
            TreeSet<String> changed = new TreeSet<>(wanted);
            current.forEach(link -> {
                if (!changed.remove(link.credentialId)) {
                    changed.add(link.credentialId);
                }
            });
            List<String> joining = wanted.stream()
                    .filter(id -> current.stream().noneMatch(link -> link.credentialId.equals(id)))
                    .toList();
            return locks.credentials(changed)
                    .call(affected -> requireRoomFor(joining))
                    .flatMap(affected -> AdminWrites.replaceLinks(
                                    members,
                                    current,
                                    link -> link.credentialId,
                                    wanted,
                                    credentialId -> new GroupCredentialEntity(groupId, credentialId))
                            .flatMap(ok -> credentialsChanged(affected)));
        });
    }

    /**
     * A credential's snapshot lists its groups: joining one more must keep it within {@link
     * Inputs#MAX_GROUP_IDS}, the bound a credential's own {@code group_ids} has.
     */
    private Uni<Void> requireRoomFor(List<String> joining) {
        return members.groupCounts(joining)
                .invoke(counts -> counts.forEach((credentialId, count) -> {
                    if (count >= Inputs.MAX_GROUP_IDS) {
                        throw AdminException.invalid(
                                AdminCodes.CREDENTIAL_IDS,
                                "credential " + credentialId + " is already in " + Inputs.MAX_GROUP_IDS
                                        + " groups, the most one credential may be in");
                    }
                }))
                .replaceWithVoid();
    }

    private Uni<GroupView> view(GroupEntity row) {
        return members.credentialIdsOf(row.id).map(credentialIds -> view(row, credentialIds));
    }

    private static GroupView view(GroupEntity row, List<String> credentialIds) {
        return GroupView.of(StateRows.groupSnapshot(row, row.updatedAt), credentialIds, row.createdAt, row.updatedAt);
    }
}
