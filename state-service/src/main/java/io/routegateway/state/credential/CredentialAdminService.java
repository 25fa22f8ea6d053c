package io.routegateway.state.credential;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.routegateway.common.config.RouteConfig;
import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.model.Platform;
import io.routegateway.core.model.WeightMode;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.recovery.DefaultZone;
import io.routegateway.core.state.ModelState;
import io.routegateway.state.hostpolicy.UpstreamHosts;
import io.routegateway.state.oauth.OAuthStore;
import io.routegateway.state.pool.AdminWrites;
import io.routegateway.state.pool.PoolReader;
import io.routegateway.state.pool.References;
import io.routegateway.state.pool.SecretRedactor;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.CredentialModelRepository;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.repository.GroupCredentialEntity;
import io.routegateway.state.repository.GroupCredentialRepository;
import io.routegateway.state.repository.PendingAuthorizationEntity;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.repository.TimelineEntity;
import io.routegateway.state.repository.TimelineRepository;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
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
    private final OAuthStore oauthStore;
    private final Clock clock;
    private final ZoneId defaultZone;
    private final UpstreamHosts upstreamHosts;

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
            OAuthStore oauthStore,
            Clock clock,
            RouteConfig routeConfig,
            UpstreamHosts upstreamHosts) {
        this.upstreamHosts = upstreamHosts;
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
        this.oauthStore = oauthStore;
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
                    .map(row -> credentialView(
                            row, stored.modelsOf(row.id), stored.groupIdsOf(row.id), redactor.forCredential(row), now))
                    .toList();
        });
    }

    @WithSession
    public Uni<CredentialView> get(String id) {
        return existing(id).flatMap(this::view);
    }

    public Uni<CredentialView> create(JsonBody<CredentialInput> body) {
        // before the format check: an address java.net.URI cannot read as a host (2852039166) is still named
        upstreamHosts.require(body.value().baseUrl());
        CredentialRules.NewCredential checked = CredentialRules.create(body, defaultZone);
        Instant now = clock.instant();
        CredentialEntity row = new CredentialEntity();
        row.id = checked.id();
        row.name = checked.name();
        row.platform = checked.platform().wire();
        row.kind = checked.kind().wire();
        row.baseUrl = checked.baseUrl();
        // an official credential awaiting authorization stores no secret (empty, never sealed)
        row.encryptedSecret = checked.secret() == null ? "" : secretBox.seal(row.secretBinding(), checked.secret());
        if (checked.secret() == null) {
            row.oauthState = AuthState.UNAUTHORIZED.wire();
        }
        row.configJson = checked.configJson();
        row.enabled = checked.enabled();
        row.inPool = checked.inPool();
        row.archived = checked.archived();
        row.priority = checked.priority();
        row.weightMode = checked.weightMode().wire();
        if (checked.weight() != null) {
            row.weight = checked.weight();
        }
        row.quotaRemaining = checked.quotaRemaining();
        StateRows.writeCredentialLimits(row, checked.limits());
        row.createdAt = now;
        row.updatedAt = now;
        List<String> groupIds = checked.groupIds();
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
        return writes.inTransaction(() -> credentials.findForUpdate(id).flatMap(row -> {
            if (row == null) {
                throw AdminException.notFound("credential", id);
            }
            if (body.has("base_url")) {
                upstreamHosts.require(body.value().baseUrl());
            }
            CredentialRules.Changes changes = CredentialRules.update(stored(row), body, defaultZone);
            if (changes.baseUrlSent() && !changes.baseUrl().equals(row.baseUrl)) {
                // the key goes to a new host only when the admin enters it for that host
                if (changes.secret() == null && row.encryptedSecret != null && !row.encryptedSecret.isEmpty()) {
                    throw AdminException.invalid(
                            AdminCodes.SECRET_REQUIRED,
                            "a new base_url needs the secret sent again in the same request");
                }
            }
            if (changes.name() != null) {
                row.name = changes.name();
            }
            SecretBox.Binding sealedUnder = row.secretBinding();
            OAuthChange oauth = oauthChange(row, changes);
            row.platform = changes.platform().wire();
            row.kind = changes.kind().wire();
            if (changes.baseUrlSent()) {
                row.baseUrl = changes.baseUrl();
            }
            if (changes.secret() != null) {
                row.encryptedSecret = secretBox.seal(row.secretBinding(), changes.secret());
            } else if (oauth == OAuthChange.REAUTHORIZE) {
                // the access token was issued by the other platform: nothing usable is left to seal
                row.encryptedSecret = "";
            } else if (!row.encryptedSecret.isEmpty() && !row.secretBinding().equals(sealedUnder)) {
                row.encryptedSecret = resealed(row, sealedUnder);
            }
            if (changes.configJson() != null) {
                row.configJson = changes.configJson();
            }
            if (changes.enabled() != null) {
                row.enabled = changes.enabled();
            }
            if (changes.inPool() != null) {
                row.inPool = changes.inPool();
            }
            if (changes.archived() != null) {
                row.archived = changes.archived();
            }
            if (changes.priority() != null) {
                row.priority = changes.priority();
            }
            row.weightMode = changes.weight().mode().wire();
            row.weight = changes.weight().weight();
            if (changes.quotaSent()) {
                row.quotaRemaining = changes.quotaRemaining();
            }
            if (changes.limits() != null) {
                StateRows.writeCredentialLimits(row, changes.limits());
            }
            Uni<Void> groups = Uni.createFrom().voidItem();
            if (changes.groupIds() != null) {
                List<String> groupIds = changes.groupIds();
                groups = references.requireGroups(groupIds).flatMap(ok -> replaceGroups(id, groupIds));
            }
            return groups.flatMap(ok -> applyOAuthChange(row, oauth))
                    .flatMap(ok -> outbox.credentialChanged(row))
                    .flatMap(version -> view(row));
        }));
    }

    /** What an update does to the OAuth material of an OAuth-managed official credential. */
    enum OAuthChange {
        /** Nothing: not OAuth-managed, or the material still belongs to the account as it is. */
        KEEP,
        /** A static token or an api key replaces it: the credential is no longer OAuth-managed. */
        FORGET,
        /** Its platform changed: the tokens belonged to the other one, so it awaits authorization again. */
        REAUTHORIZE
    }

    static OAuthChange oauthChange(CredentialEntity row, CredentialRules.Changes changes) {
        if (row.oauthState == null) {
            return OAuthChange.KEEP;
        }
        if (changes.secret() != null || changes.kind() == CredentialKind.API) {
            return OAuthChange.FORGET;
        }
        return changes.platform().wire().equals(row.platform) ? OAuthChange.KEEP : OAuthChange.REAUTHORIZE;
    }

    /** Drops the refresh token and the started flows (sealed to the old platform) when the material goes. */
    private Uni<Void> applyOAuthChange(CredentialEntity row, OAuthChange change) {
        if (change == OAuthChange.KEEP) {
            return Uni.createFrom().voidItem();
        }
        return oauthStore
                .forget(row)
                .flatMap(ok -> PendingAuthorizationEntity.delete("credentialId", row.id))
                .invoke(dropped -> {
                    if (change == OAuthChange.REAUTHORIZE) {
                        row.oauthState = AuthState.UNAUTHORIZED.wire();
                    }
                })
                .replaceWithVoid();
    }

    private static CredentialRules.Stored stored(CredentialEntity row) {
        return new CredentialRules.Stored(
                row.platform,
                row.kind,
                row.configJson,
                WeightMode.fromWire(row.weightMode),
                row.weight,
                // an OAuth access token is the account's, not a key an api credential could keep
                row.oauthState == null && row.encryptedSecret != null && !row.encryptedSecret.isEmpty());
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
                        .map(groupIds -> credentialView(row, modelRows, groupIds, redactor.forCredential(row), now)));
    }

    /** The row's values and health handed to {@link CredentialViews}, which reads no entity. */
    static CredentialView credentialView(
            CredentialEntity row,
            List<CredentialModelEntity> modelRows,
            List<String> groupIds,
            UnaryOperator<String> redact,
            Instant now) {
        CredentialViews.Row values = new CredentialViews.Row(
                row.id,
                row.name,
                row.platform,
                row.kind,
                row.baseUrl,
                row.encryptedSecret != null && !row.encryptedSecret.isEmpty(),
                row.configJson,
                row.enabled,
                row.archived,
                row.inPool,
                row.priority,
                row.weightMode,
                row.weight,
                row.quotaRemaining,
                StateRows.credentialLimits(row),
                row.stateVersion,
                row.createdAt,
                row.updatedAt,
                StateRows.oauthStatus(row),
                row.oauthLastRefreshError);
        return CredentialViews.credential(
                values, StateRows.configJson(row), StateRows.health(row, modelRows), groupIds, redact, now);
    }

    /** The 模型状态 section of the row and its model rows. */
    static List<ModelView> modelViews(
            CredentialEntity row, List<CredentialModelEntity> modelRows, UnaryOperator<String> redact, Instant now) {
        JsonNode config = StateRows.configJson(row);
        CredentialKind kind = CredentialKind.fromWire(row.kind);
        List<ModelState> states = modelRows.stream().map(StateRows::model).toList();
        return CredentialViews.models(Platform.fromWire(row.platform), kind, config, states, redact, now);
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
