package io.routegateway.state.credential;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.routegateway.common.config.RouteConfig;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.policy.Weights;
import io.routegateway.core.recovery.DefaultZone;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.pool.References;
import io.routegateway.state.pool.SecretRedactor;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelRepository;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.repository.GroupCredentialEntity;
import io.routegateway.state.repository.GroupCredentialRepository;
import io.routegateway.state.repository.TimelineEntity;
import io.routegateway.state.repository.TimelineRepository;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;
import io.routegateway.state.web.Page;
import io.routegateway.state.web.Paging;
import io.smallrye.mutiny.Uni;

/**
 * Credentials: configuration writes (each with its {@code CredentialSnapshot} outbox row in one
 * transaction), archive and purge, and the health timeline. The secret is sealed with {@link
 * SecretBox} under the credential's binding (id, platform, base URL) the moment it arrives and is
 * never returned; an update that changes platform or base URL re-seals the stored secret under the
 * new binding in the same transaction, so it keeps opening for the gateways.
 *
 * <p>{@code DELETE} archives: the credential leaves every pool (archived credentials belong to no
 * group for routing) but keeps its id, configuration, timeline and request history, and can be
 * restored with {@code archived: false}. {@code DELETE ?purge=true} removes the row, its model rows,
 * memberships and timeline, and publishes a tombstone; request logs keep the id.
 */
@ApplicationScoped
public class CredentialAdminService {

    private final CredentialRepository credentials;
    private final CredentialModelRepository models;
    private final GroupCredentialRepository members;
    private final TimelineRepository timeline;
    private final References references;
    private final PoolReader pool;
    private final StateOutbox outbox;
    private final AdminWrites writes;
    private final SecretBox secretBox;
    private final SecretRedactor redactor;
    private final Clock clock;
    private final ZoneId defaultZone;

    CredentialAdminService(
            CredentialRepository credentials,
            CredentialModelRepository models,
            GroupCredentialRepository members,
            TimelineRepository timeline,
            References references,
            PoolReader pool,
            StateOutbox outbox,
            AdminWrites writes,
            SecretBox secretBox,
            SecretRedactor redactor,
            Clock clock,
            RouteConfig routeConfig) {
        this.credentials = credentials;
        this.models = models;
        this.members = members;
        this.timeline = timeline;
        this.references = references;
        this.pool = pool;
        this.outbox = outbox;
        this.writes = writes;
        this.secretBox = secretBox;
        this.redactor = redactor;
        this.clock = clock;
        // the zone stamped into rules that name none: route.default-time-zone, as recovery-service reads it
        this.defaultZone = DefaultZone.resolve(routeConfig.defaultTimeZone(), Optional.empty(), ZoneId.systemDefault());
    }

    /** @param archived {@code false}: active only; {@code true}: archived only; null: all */
    public Uni<List<CredentialView>> list(Boolean archived) {
        return pool.read().map(stored -> {
            Instant now = clock.instant();
            return stored.credentials().stream()
                    .filter(row -> archived == null || row.archived == archived)
                    .sorted(Comparator.comparingInt((CredentialEntity row) -> row.priority)
                            .thenComparing(row -> row.id))
                    .map(row -> CredentialViews.credential(
                            row, stored.modelsOf(row.id), stored.groupIdsOf(row.id), redactor.forCredential(row), now))
                    .toList();
        });
    }

    @WithSession
    public Uni<CredentialView> get(String id) {
        return existing(id).flatMap(this::view);
    }

    public Uni<CredentialView> create(JsonBody<CredentialInput> body) {
        CredentialInput input = body.value();
        Instant now = clock.instant();
        CredentialEntity row = new CredentialEntity();
        row.id = Inputs.idOrNew(input.id(), "cred");
        row.name = Inputs.name(input.name());
        Platform platform = platform(input.platform());
        CredentialKind kind = kind(input.kind());
        requireCapability(platform, kind);
        row.platform = platform.wire();
        row.kind = kind.wire();
        row.baseUrl = Inputs.baseUrl(input.baseUrl());
        row.encryptedSecret = secretBox.seal(row.secretBinding(), Inputs.secret(input.secret(), "secret is required"));
        row.configJson = CredentialConfig.write("{}", body, defaultZone);
        row.enabled = input.enabled() == null || input.enabled();
        row.inPool = input.inPool() == null || input.inPool();
        row.archived = Boolean.TRUE.equals(input.archived());
        row.priority = input.priority() == null ? 0 : priority(input.priority());
        WeightMode mode = input.weightMode() == null ? WeightMode.AUTO : Inputs.weightMode(input.weightMode());
        Weights.requireWritable(mode, input.weight());
        row.weightMode = mode.wire();
        if (input.weight() != null) {
            row.weight = input.weight();
        }
        row.quotaRemaining = quota(input.quotaRemaining());
        row.createdAt = now;
        row.updatedAt = now;
        List<String> groupIds = Inputs.ids(input.groupIds(), AdminCodes.GROUP_IDS, Inputs.MAX_GROUP_IDS);
        return writes.inTransaction(() -> credentials
                .findById(row.id)
                .flatMap(taken -> {
                    if (taken != null) {
                        throw AdminException.conflict("credential " + row.id + " already exists");
                    }
                    return references.requireGroups(groupIds);
                })
                .flatMap(ok -> credentials.persist(row))
                .flatMap(saved -> AdminWrites.persistAll(
                        members,
                        groupIds.stream()
                                .map(groupId -> new GroupCredentialEntity(groupId, row.id))
                                .toList()))
                .flatMap(ok -> members.flush())
                .flatMap(flushed -> outbox.credentialChanged(row))
                .flatMap(version -> view(row)));
    }

    public Uni<CredentialView> update(String id, JsonBody<CredentialInput> body) {
        CredentialInput input = body.value();
        return writes.inTransaction(() -> credentials.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("credential", id);
            }
            if (body.has("name")) {
                row.name = Inputs.name(input.name());
            }
            SecretBox.Binding sealedUnder = row.secretBinding();
            Platform platform = input.platform() == null ? Platform.fromWire(row.platform) : platform(input.platform());
            CredentialKind kind = input.kind() == null ? CredentialKind.fromWire(row.kind) : kind(input.kind());
            requireCapability(platform, kind);
            row.platform = platform.wire();
            row.kind = kind.wire();
            if (body.has("base_url")) {
                row.baseUrl = Inputs.baseUrl(input.baseUrl());
            }
            if (body.has("secret")) {
                row.encryptedSecret = secretBox.seal(
                        row.secretBinding(),
                        Inputs.secret(input.secret(), "secret must not be blank; leave it out to keep it"));
            } else if (!row.secretBinding().equals(sealedUnder)) {
                row.encryptedSecret = resealed(row, sealedUnder);
            }
            if (CredentialConfig.touches(body)) {
                row.configJson = CredentialConfig.write(row.configJson, body, defaultZone);
            }
            if (input.enabled() != null) {
                row.enabled = input.enabled();
            }
            if (input.inPool() != null) {
                row.inPool = input.inPool();
            }
            if (input.archived() != null) {
                row.archived = input.archived();
            }
            if (input.priority() != null) {
                row.priority = priority(input.priority());
            }
            applyWeight(row, input);
            if (body.has("quota_remaining")) {
                row.quotaRemaining = quota(input.quotaRemaining());
            }
            Uni<Void> groups = Uni.createFrom().voidItem();
            if (body.has("group_ids")) {
                List<String> groupIds = Inputs.ids(input.groupIds(), AdminCodes.GROUP_IDS, Inputs.MAX_GROUP_IDS);
                groups = references.requireGroups(groupIds).flatMap(ok -> replaceGroups(id, groupIds));
            }
            return groups.flatMap(ok -> outbox.credentialChanged(row)).flatMap(version -> view(row));
        }));
    }

    /** The stored secret under the row's new binding; refused when it no longer opens (e.g. a replaced key). */
    private String resealed(CredentialEntity row, SecretBox.Binding sealedUnder) {
        String secret;
        try {
            secret = SecretBox.isV1(row.encryptedSecret)
                    ? secretBox.openV1(row.id, row.encryptedSecret)
                    : secretBox.open(sealedUnder, row.encryptedSecret);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(
                    AdminCodes.SECRET,
                    "the stored secret cannot be opened to follow the new platform or base_url; send the secret too");
        }
        return secretBox.seal(row.secretBinding(), secret);
    }

    /** Archives (default) or purges the credential; see the class comment. */
    public Uni<Void> delete(String id, boolean purge) {
        return writes.inTransaction(() -> credentials.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("credential", id);
            }
            if (!purge) {
                row.archived = true;
                return outbox.credentialChanged(row).replaceWithVoid();
            }
            return members.delete("credentialId", id)
                    .flatMap(deleted -> timeline.delete("credentialId", id))
                    .flatMap(deleted -> models.delete("routeCredentialId", id))
                    .flatMap(deleted -> credentials.delete(row))
                    .flatMap(deleted -> credentials.flush())
                    .flatMap(flushed -> outbox.credentialDeleted(id));
        }));
    }

    /** Newest first; {@code cursor} is the {@code next_cursor} of the previous page. */
    @WithSession
    public Uni<Page<TimelineEntryView>> timeline(String id, String limitSent, String cursor) {
        int limit = Paging.limit(limitSent);
        long before = cursor(cursor);
        return existing(id)
                .flatMap(row -> timeline.find("credentialId = ?1 and id < ?2 order by id desc", id, before)
                        .page(0, limit + 1)
                        .list()
                        .map(lines -> {
                            var redact = redactor.forCredential(row);
                            List<TimelineEntryView> items = lines.stream()
                                    .limit(limit)
                                    .map(line -> entry(line, redact.apply(line.detail)))
                                    .toList();
                            String next = lines.size() > limit
                                    ? Long.toString(items.get(items.size() - 1).id())
                                    : null;
                            return new Page<>(items, next);
                        }));
    }

    Uni<CredentialEntity> existing(String id) {
        return credentials.findById(id).map(row -> {
            if (row == null) {
                throw AdminException.notFound("credential", id);
            }
            return row;
        });
    }

    Uni<CredentialView> view(CredentialEntity row) {
        Instant now = clock.instant();
        return models.listForCredential(row.id)
                .flatMap(modelRows -> members.groupIdsOf(row.id)
                        .map(groupIds -> CredentialViews.credential(
                                row, modelRows, groupIds, redactor.forCredential(row), now)));
    }

    private Uni<Void> replaceGroups(String credentialId, List<String> wanted) {
        return members.list("credentialId", credentialId)
                .flatMap(current -> AdminWrites.replaceLinks(
                        members,
                        current,
                        link -> link.groupId,
                        wanted,
                        groupId -> new GroupCredentialEntity(groupId, credentialId)));
    }

    /** The pair as it will be stored must be writable: 0 is refused, also when switching a legacy 0 to manual. */
    private static void applyWeight(CredentialEntity row, CredentialInput input) {
        WeightMode sentMode = input.weightMode() == null ? null : Inputs.weightMode(input.weightMode());
        Weights.Setting setting =
                Weights.afterUpdate(WeightMode.fromWire(row.weightMode), row.weight, sentMode, input.weight());
        row.weightMode = setting.mode().wire();
        row.weight = setting.weight();
    }

    private static Platform platform(String wire) {
        try {
            return Platform.fromWire(wire);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(
                    AdminCodes.PLATFORM, "platform must be one of claude, codex, gemini, grok, openai");
        }
    }

    private static CredentialKind kind(String wire) {
        try {
            return CredentialKind.fromWire(wire);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(AdminCodes.KIND, "kind must be api or official");
        }
    }

    /** The platform capability rule (route-core's {@link Platform#accepts}). */
    private static void requireCapability(Platform platform, CredentialKind kind) {
        if (!platform.accepts(kind)) {
            throw AdminException.invalid(
                    AdminCodes.PLATFORM_KIND,
                    "platform " + platform.wire() + " does not accept " + kind.wire() + " credentials");
        }
    }

    private static int priority(int priority) {
        if (priority < 0 || priority > 1_000_000) {
            throw AdminException.invalid(AdminCodes.PRIORITY, "priority must be 0..1000000 (lower goes first)");
        }
        return priority;
    }

    private static Long quota(Long quota) {
        if (quota != null && quota < 0) {
            throw AdminException.invalid(AdminCodes.QUOTA, "quota_remaining must be at least 0, or null for unlimited");
        }
        return quota;
    }

    private static long cursor(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return Long.MAX_VALUE;
        }
        try {
            return Long.parseLong(cursor.strip());
        } catch (NumberFormatException e) {
            throw AdminException.invalid(AdminCodes.QUERY, "cursor must be the next_cursor of a previous page");
        }
    }

    private static TimelineEntryView entry(TimelineEntity line, String detail) {
        return new TimelineEntryView(
                line.id,
                line.occurredAt,
                line.modelKey,
                line.fromCondition,
                line.toCondition,
                line.cause,
                line.until,
                detail,
                line.eventId);
    }
}
