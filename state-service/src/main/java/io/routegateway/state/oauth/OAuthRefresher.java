package io.routegateway.state.oauth;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.identity.ServiceWrites;
import io.routegateway.core.json.Json;
import io.routegateway.core.model.Platform;
import io.routegateway.core.oauth.AuthState;
import io.routegateway.core.oauth.OAuthMaterial;
import io.routegateway.core.oauth.RefreshPlan;
import io.routegateway.core.state.AccountStatus;
import io.routegateway.core.webhook.Notification;
import io.routegateway.core.webhook.NotificationRules;
import io.routegateway.state.identity.AuditTrail;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.metrics.StateMetrics.RefreshResult;
import io.routegateway.state.outcome.ApplyResult;
import io.routegateway.state.outcome.CredentialEventService;
import io.routegateway.state.publish.OutboxRelay;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.webhook.WebhookQueue;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

/**
 * Keeps the access tokens of OAuth-managed official credentials fresh: every {@code
 * route.oauth.tick} it refreshes each due credential ({@link RefreshPlan#isDue}: within {@code
 * route.oauth.refresh-lead} of its expiry, or asked for by an upstream 401) and marks authorized
 * tokens past their expiry {@code expired}.
 *
 * <p>Exactly one refresh per credential at a time, across every replica: refresh tokens rotate, and
 * a second refresh presenting the same token makes the platform revoke the account. A refresher
 * first takes the credential's lease in one committed {@code UPDATE} that only succeeds while no
 * unexpired lease is held ({@code route.oauth.lease}, longer than the HTTP timeout), re-reads the
 * row under it (another replica may have just refreshed), and only then calls the token endpoint.
 * The answer is stored in a new transaction under the credential's row lock, and only when the
 * refresh token held is still the one presented:
 *
 * <ul>
 *   <li>new material → {@link OAuthStore#store} (authorized, new expiry, lease and backoff cleared);
 *   <li>a transient failure → {@code transient-failure-recorded.v1} with the {@code refresh} label
 *       through the one state transition (account scope: the account's cooldown), the refresh backed
 *       off ({@link RefreshPlan#nextAttempt}), {@code oauth_last_refresh_error} set;
 *   <li>a permanent marker → {@code permanent-failure-recorded.v1}: the account is revoked and never
 *       refreshed again (only re-authorization brings it back).
 * </ul>
 */
@ApplicationScoped
public class OAuthRefresher {

    private static final Logger LOG = Logger.getLogger(OAuthRefresher.class);

    /** Token calls one round makes at once. */
    static final int PARALLEL_REFRESHES = 4;

    private final OAuthConfig config;
    private final TokenEndpoint tokens;
    private final OAuthStore store;
    private final CredentialRepository credentials;
    private final CredentialEventService events;
    private final StateOutbox stateOutbox;
    private final OutboxRelay relay;
    private final Vertx vertx;
    private final Clock clock;
    private final StateMetrics metrics;
    private final WebhookQueue webhooks;
    private final AuditTrail audit;
    /** This process's lease owner id: unique per process, readable in the table. */
    private final String owner;

    OAuthRefresher(
            OAuthConfig config,
            TokenEndpoint tokens,
            OAuthStore store,
            CredentialRepository credentials,
            CredentialEventService events,
            StateOutbox stateOutbox,
            OutboxRelay relay,
            Vertx vertx,
            Clock clock,
            StateMetrics metrics,
            WebhookQueue webhooks,
            AuditTrail audit) {
        this.config = config;
        this.tokens = tokens;
        this.store = store;
        this.credentials = credentials;
        this.events = events;
        this.stateOutbox = stateOutbox;
        this.relay = relay;
        this.vertx = vertx;
        this.clock = clock;
        this.metrics = metrics;
        this.webhooks = webhooks;
        this.audit = audit;
        String host = System.getenv("HOSTNAME");
        this.owner = (host == null || host.isBlank() ? "state-service" : host.strip()) + "/" + UUID.randomUUID();
    }

    /** The lease owner id of this process. */
    public String owner() {
        return owner;
    }

    @Scheduled(
            identity = "state-oauth-refresh",
            every = "${route.oauth.tick}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return refreshDue(owner)
                .onFailure()
                .invoke(failure -> LOG.warnf("OAuth refresh round failed, retried next tick: %s", failure.toString()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * One round as {@code owner}: refreshes every due credential whose lease it takes, then marks
     * authorized tokens past their expiry {@code expired}.
     *
     * @return how many token-endpoint calls this round made
     */
    public Uni<Integer> refreshDue(String owner) {
        return onOwnContext(() -> dueCredentials(clock.instant()))
                .flatMap(ids -> Multi.createFrom()
                        .iterable(ids)
                        .onItem()
                        .transformToUni(id -> onOwnContext(() -> refreshIfLeased(id, owner)))
                        .merge(PARALLEL_REFRESHES)
                        .collect()
                        .asList())
                .flatMap(called -> onOwnContext(this::markExpired).replaceWith((int)
                        called.stream().filter(Boolean::booleanValue).count()));
    }

    /**
     * The credentials due now: OAuth-managed, authorized or expired, not revoked, holding a refresh
     * token, past their backoff, without a live lease, and due by {@link RefreshPlan#isDue}.
     */
    private Uni<List<String>> dueCredentials(Instant now) {
        return Panache.withSession(() -> Panache.getSession()
                .flatMap(session -> session.createSelectionQuery(
                                "select c, o from CredentialEntity c, CredentialOAuthEntity o"
                                        + " where o.credentialId = c.id and c.kind = 'official'"
                                        + " and c.oauthState in ('authorized', 'expired') and c.status <> 'revoked'"
                                        + " and o.sealedRefreshToken is not null"
                                        + " and (o.nextAttemptAt is null or o.nextAttemptAt <= :now)"
                                        + " and (o.leaseUntil is null or o.leaseUntil <= :now)",
                                Object[].class)
                        .setParameter("now", now)
                        .getResultList())
                .map(rows -> {
                    List<String> due = new ArrayList<>();
                    for (Object[] row : rows) {
                        CredentialEntity credential = (CredentialEntity) row[0];
                        CredentialOAuthEntity oauth = (CredentialOAuthEntity) row[1];
                        if (RefreshPlan.isDue(
                                now, credential.oauthAccessExpiresAt, config.refreshLead(), oauth.refreshDueAt)) {
                            due.add(credential.id);
                        }
                    }
                    return due;
                }));
    }

    /** What a lease holder read under its lease: the material to present and how it was sealed. */
    private record Leased(Platform platform, OAuthMaterial held, String sealedRefreshToken) {}

    /** Takes the lease, calls the token endpoint, stores the answer; true when the endpoint was called. */
    private Uni<Boolean> refreshIfLeased(String credentialId, String owner) {
        return lease(credentialId, owner).flatMap(leased -> {
            if (leased == null) {
                return Uni.createFrom().item(false);
            }
            return tokens.refresh(leased.platform(), leased.held())
                    .flatMap(result -> settle(credentialId, owner, leased, result))
                    .onFailure()
                    .call(failure -> {
                        LOG.warnf("Storing the refresh of %s failed; the lease runs out: %s", credentialId, failure);
                        return Uni.createFrom().voidItem();
                    })
                    .onFailure()
                    .recoverWithNull()
                    .replaceWith(true);
        });
    }

    /**
     * The lease in one committed transaction: the conditional {@code UPDATE} (row count 1: ours),
     * then the row re-read under it; a credential no longer due (refreshed meanwhile, revoked,
     * re-authorized) gives the lease straight back. Null when not leased or not due.
     */
    private Uni<Leased> lease(String credentialId, String owner) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> session.createMutationQuery("update CredentialOAuthEntity o"
                                + " set o.leaseOwner = :owner, o.leaseUntil = :until"
                                + " where o.credentialId = :id and (o.leaseUntil is null or o.leaseUntil <= :now)")
                        .setParameter("owner", owner)
                        .setParameter("until", now.plus(config.lease()))
                        .setParameter("id", credentialId)
                        .setParameter("now", now)
                        .executeUpdate())
                .flatMap(updated -> {
                    if (updated != 1) {
                        return Uni.createFrom().nullItem();
                    }
                    return credentials
                            .findById(credentialId)
                            .flatMap(row -> store.oauthRow(credentialId).flatMap(oauth -> {
                                if (!stillDue(row, oauth, now)) {
                                    release(oauth);
                                    return Uni.createFrom().nullItem();
                                }
                                return Uni.createFrom()
                                        .item(new Leased(
                                                Platform.fromWire(row.platform),
                                                store.held(row, oauth),
                                                oauth.sealedRefreshToken));
                            }));
                }));
    }

    private boolean stillDue(CredentialEntity row, CredentialOAuthEntity oauth, Instant now) {
        return row != null
                && oauth != null
                && oauth.sealedRefreshToken != null
                && (AuthState.AUTHORIZED.wire().equals(row.oauthState)
                        || AuthState.EXPIRED.wire().equals(row.oauthState))
                && !AccountStatus.REVOKED.wire().equals(row.status)
                && (oauth.nextAttemptAt == null || !oauth.nextAttemptAt.isAfter(now))
                && RefreshPlan.isDue(now, row.oauthAccessExpiresAt, config.refreshLead(), oauth.refreshDueAt);
    }

    /**
     * Stores a refresh answer under the credential's row lock, when the refresh token held is still
     * the one presented (a re-authorization meanwhile wins) and the account was not revoked
     * meanwhile (a revocation is lifted only by hand).
     */
    private Uni<Void> settle(String credentialId, String owner, Leased leased, RefreshPlan.Result result) {
        // what the database keeps (microseconds): the published refresh time is the stored one
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        return Panache.withTransaction(() -> credentials
                        .findForUpdate(credentialId)
                        .flatMap(locked -> store.oauthRow(credentialId).flatMap(oauth -> {
                            if (locked == null
                                    || oauth == null
                                    || !Objects.equals(oauth.sealedRefreshToken, leased.sealedRefreshToken())) {
                                LOG.infof(
                                        "Refresh of %s answered after its material changed: answer dropped",
                                        credentialId);
                                if (oauth != null && owner.equals(oauth.leaseOwner)) {
                                    release(oauth);
                                }
                                return Uni.createFrom().item(false);
                            }
                            if (AccountStatus.REVOKED.wire().equals(locked.status)) {
                                release(oauth);
                                return Uni.createFrom().item(false);
                            }
                            ObjectNode before = authFields(locked);
                            if (result instanceof RefreshPlan.Refreshed refreshed) {
                                LOG.infof("Refreshed the access token of %s", credentialId);
                                return store.store(locked, refreshed.material(), now)
                                        .invoke(() -> metrics.oauthRefreshed(RefreshResult.REFRESHED))
                                        .flatMap(ok -> audited("oauth/refreshed", locked, before))
                                        .replaceWith(true);
                            }
                            return recordFailure(locked, oauth, result, now)
                                    .call(published -> audited("oauth/refresh-failed", locked, before));
                        })))
                .invoke(changed -> {
                    if (changed) {
                        relay.trigger();
                    }
                })
                .replaceWithVoid();
    }

    /** A failed refresh: the state transition's event, the backoff, the error shown; true when published. */
    private Uni<Boolean> recordFailure(
            CredentialEntity locked, CredentialOAuthEntity oauth, RefreshPlan.Result result, Instant now) {
        CredentialEvent event;
        String message;
        if (result instanceof RefreshPlan.Permanent permanent) {
            message = permanent.message();
            event = new CredentialEvent.PermanentFailureRecorded(
                    UUID.randomUUID(), locked.id, now, null, permanent.kind(), permanent.status(), message, null);
            oauth.nextAttemptAt = null;
            metrics.oauthRefreshed(RefreshResult.REVOKED);
            LOG.warnf("Refresh of %s answered with a permanent marker: the account is revoked", locked.id);
        } else {
            RefreshPlan.Transient failure = (RefreshPlan.Transient) result;
            message = failure.message();
            event = new CredentialEvent.TransientFailureRecorded(
                    UUID.randomUUID(), locked.id, now, null, failure.kind(), failure.status(), message, null);
            oauth.nextAttemptAt =
                    RefreshPlan.nextAttempt(now, oauth.refreshFailures + 1, config.backoff(), config.maxBackoff());
            metrics.oauthRefreshed(RefreshResult.FAILED);
            LOG.infof("Refresh of %s failed (%s); next attempt at %s", locked.id, message, oauth.nextAttemptAt);
        }
        oauth.refreshFailures++;
        release(oauth);
        locked.oauthLastRefreshError = truncate(message);
        // a transient failure notifies at the first of a streak; a permanent one as the revocation it causes
        Notification failing = result instanceof RefreshPlan.Transient failure
                ? NotificationRules.oauthRefreshFailing(locked.id, oauth.refreshFailures, failure.kind(), now)
                : null;
        return webhooks.queue(failing == null ? List.of() : List.of(failing))
                .flatMap(queued -> events.applyInTransaction(event))
                .map(applied -> applied.kind() == ApplyResult.Kind.CHANGED);
    }

    /**
     * Marks each authorized credential whose access token is past its expiry {@code expired} and
     * publishes it: no refresh has succeeded in time (routing then skips it with {@code
     * credential_auth_unavailable}). Re-checked under the row lock: a refresh may have just landed.
     */
    private Uni<Void> markExpired() {
        Instant now = clock.instant();
        return Panache.withSession(() -> Panache.getSession()
                        .flatMap(session -> session.createSelectionQuery(
                                        "select c.id from CredentialEntity c"
                                                + " where c.oauthState = :authorized and c.oauthAccessExpiresAt <= :now",
                                        String.class)
                                .setParameter("authorized", AuthState.AUTHORIZED.wire())
                                .setParameter("now", now)
                                .getResultList()))
                .flatMap(ids -> {
                    Uni<Integer> chain = Uni.createFrom().item(0);
                    for (String id : ids) {
                        chain = chain.flatMap(count -> markExpired(id, now).map(marked -> marked ? count + 1 : count));
                    }
                    return chain;
                })
                .invoke(marked -> {
                    if (marked > 0) {
                        relay.trigger();
                    }
                })
                .replaceWithVoid();
    }

    private Uni<Boolean> markExpired(String credentialId, Instant now) {
        return Panache.withTransaction(() -> credentials
                .findForUpdate(credentialId)
                .flatMap(locked -> {
                    if (locked == null
                            || !AuthState.AUTHORIZED.wire().equals(locked.oauthState)
                            || !RefreshPlan.isExpired(now, locked.oauthAccessExpiresAt)) {
                        return Uni.createFrom().item(false);
                    }
                    metrics.oauthExpired();
                    LOG.infof(
                            "Access token of %s expired at %s without a successful refresh",
                            locked.id, locked.oauthAccessExpiresAt);
                    ObjectNode before = authFields(locked);
                    locked.oauthState = AuthState.EXPIRED.wire();
                    return webhooks.queue(List.of(
                                    NotificationRules.oauthExpired(locked.id, locked.oauthAccessExpiresAt, now)))
                            .flatMap(queued -> stateOutbox.credentialChanged(locked))
                            .flatMap(queued -> audited("oauth/expired", locked, before))
                            .replaceWith(true);
                }));
    }

    /**
     * The refresher's change as an audit entry attributed to {@code service:oauth-refresh}, in the
     * change's transaction: the auth fields that moved (never a token).
     */
    private Uni<Void> audited(String action, CredentialEntity locked, ObjectNode before) {
        return audit.service(ServiceWrites.oauth(
                action, locked.id, before, authFields(locked), UUID.randomUUID().toString()));
    }

    /** The fields of a credential the refresher changes, as the API shows them. */
    private static ObjectNode authFields(CredentialEntity row) {
        ObjectNode fields = Json.MAPPER.createObjectNode();
        fields.put("status", row.status);
        fields.put("oauth_state", row.oauthState);
        fields.put("access_expires_at", row.oauthAccessExpiresAt == null ? null : row.oauthAccessExpiresAt.toString());
        fields.put("last_refresh_error", row.oauthLastRefreshError);
        return fields;
    }

    private void release(CredentialOAuthEntity oauth) {
        oauth.leaseOwner = null;
        oauth.leaseUntil = null;
        oauth.updatedAt = clock.instant();
    }

    private static String truncate(String message) {
        return message == null || message.length() <= OAuthAdminRules.MAX_ERROR_CHARS
                ? message
                : message.substring(0, OAuthAdminRules.MAX_ERROR_CHARS);
    }

    /**
     * Runs the work on a fresh duplicated Vert.x context: its own Hibernate Reactive session, so the
     * credentials of one round are refreshed side by side without sharing one.
     */
    private <T> Uni<T> onOwnContext(Supplier<Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> {
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            VertxContextSafetyToggle.setContextSafe(context, true);
            context.runOnContext(ignored -> work.get().subscribe().with(emitter::complete, emitter::fail));
        });
    }
}
