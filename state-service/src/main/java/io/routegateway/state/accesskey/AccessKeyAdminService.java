package io.routegateway.state.accesskey;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.routegateway.core.access.AccessKeys;
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
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.JsonBody;
import io.smallrye.mutiny.Uni;

/** AccessKeys: every write stores the row and its {@code AccessKeySnapshot} outbox row in one transaction. */
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
    private final Clock clock;

    AccessKeyAdminService(
            AccessKeyRepository keys,
            AccessKeyGroupRepository keyGroups,
            References references,
            PoolReader pool,
            StateOutbox outbox,
            AdminWrites writes,
            Clock clock) {
        this.keys = keys;
        this.keyGroups = keyGroups;
        this.references = references;
        this.pool = pool;
        this.outbox = outbox;
        this.writes = writes;
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
        AccessKeyRules.NewAccessKey checked = AccessKeyRules.create(body);
        Instant now = clock.instant();
        AccessKeyEntity row = new AccessKeyEntity();
        row.id = checked.id();
        row.name = checked.name();
        row.enabled = checked.enabled();
        row.expiresAt = checked.expiresAt();
        row.allowedProtocols = protocolsText(checked.allowedProtocols());
        row.allowedModels = StateRows.toTextArray(checked.allowedModels());
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
                .flatMap(ok -> keys.persist(row))
                .flatMap(saved -> replaceScope(row.id, groupIds))
                .flatMap(ok -> outbox.accessKeyChanged(row))
                .map(version -> new CreatedAccessKey(plaintext, CreatedAccessKey.NOTICE, view(row, groupIds, now))));
    }

    public Uni<AccessKeyView> update(String id, JsonBody<AccessKeyInput> body) {
        return writes.inTransaction(() -> keys.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("access key", id);
            }
            AccessKeyRules.Changes changes = AccessKeyRules.update(body);
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
            Uni<Void> scope = Uni.createFrom().voidItem();
            if (changes.groupIds() != null) {
                List<String> groupIds = changes.groupIds();
                scope = references.requireGroups(groupIds).flatMap(ok -> replaceScope(id, groupIds));
            }
            return scope.flatMap(ok -> outbox.accessKeyChanged(row)).flatMap(version -> view(row));
        }));
    }

    /** Deletes the key and publishes a tombstone: gateways forget it, requests with it get {@code invalid_access_key}. */
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
