package io.routegateway.state.outcome;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Timer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.event.CredentialEvent;
import io.routegateway.core.event.CredentialEvent.AttemptSucceeded;
import io.routegateway.core.event.CredentialEvent.TransientFailureRecorded;
import io.routegateway.core.event.OutcomePosition;
import io.routegateway.core.identity.ServiceWrites;
import io.routegateway.core.model.CredentialKind;
import io.routegateway.core.oauth.RefreshPlan;
import io.routegateway.core.policy.RuntimeSettings;
import io.routegateway.core.state.CredentialHealth;
import io.routegateway.core.state.CredentialProfile;
import io.routegateway.core.state.HealthChange;
import io.routegateway.core.state.ModelState;
import io.routegateway.core.state.StateTransition;
import io.routegateway.core.state.SuccessShortcut;
import io.routegateway.core.state.Transition;
import io.routegateway.core.webhook.NotificationRules;
import io.routegateway.state.identity.AuditTrail;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.publish.OutboxRelay;
import io.routegateway.state.publish.StateOutbox;
import io.routegateway.state.repository.CredentialEntity;
import io.routegateway.state.repository.CredentialModelEntity;
import io.routegateway.state.repository.CredentialModelRepository;
import io.routegateway.state.repository.CredentialOAuthEntity;
import io.routegateway.state.repository.CredentialRepository;
import io.routegateway.state.repository.OutboxEntity;
import io.routegateway.state.repository.ProcessedEventRepository;
import io.routegateway.state.repository.ProcessedEventRepository.Recorded;
import io.routegateway.state.repository.StateRows;
import io.routegateway.state.repository.TimelineEntity;
import io.routegateway.state.repository.TimelineRepository;
import io.routegateway.state.webhook.WebhookQueue;
import io.smallrye.mutiny.Uni;

/**
 * Applies {@link CredentialEvent}s to the database: the one write path of credential health, used
 * by the outcome consumer and by the admin API's manual actions (pause, resume, clear, clear all,
 * restore), so both go through the same transition and the same outbox.
 *
 * <p>One transaction per event: lock the account row, record the event id (an id recorded before
 * means a redelivery: nothing else happens), load the model rows, run {@link StateTransition#apply}
 * (escalation included, under the lock), write only what changed, append the timeline, bump {@code
 * state_version}, queue the snapshot and the webhook deliveries of the changes that need a person,
 * and, for recovery-service's own decisions, the audit entry attributed to {@code service:recovery}
 * ({@link ServiceWrites#recovery}).
 *
 * <p>A 401 about the access token an OAuth-managed official credential holds also asks the
 * refresher for a refresh ({@code refresh_due_at}, in the same transaction).
 *
 * <p>A plain success read from {@code route.outcomes} first takes a fast path: gateways publish
 * every success (only this service knows whether a failure recorded by another replica or by
 * recovery-service waits to be cleared), and almost all of them change nothing. One unlocked read
 * of the account row and the row of the success's model; when {@link SuccessShortcut#changesNothing}
 * says so, the record is acknowledged with nothing written, not even an idempotency row. Such a
 * success, delivered again after a later failure was applied, must not clear that failure: every
 * applied change stores its record's position on the row ({@code outcome_partition}, {@code
 * outcome_offset}), and a success at or before it ({@link SuccessShortcut#isReplay}) is ignored.
 * Acknowledging a no-op is safe even unlocked: the outcomes of one credential arrive on one
 * partition and are applied one after the other, and what the admin API writes meanwhile (pauses,
 * resumes, clears, restores) never adds a failure that the success would have had to clear.
 */
@ApplicationScoped
public class CredentialEventService {

    private final CredentialRepository credentials;
    private final CredentialModelRepository models;
    private final ProcessedEventRepository processedEvents;
    private final TimelineRepository timeline;
    private final StateOutbox stateOutbox;
    private final OutboxRelay relay;
    private final Clock clock;
    private final StateMetrics metrics;
    private final WebhookQueue webhooks;
    private final AuditTrail audit;

    public CredentialEventService(
            CredentialRepository credentials,
            CredentialModelRepository models,
            ProcessedEventRepository processedEvents,
            TimelineRepository timeline,
            StateOutbox stateOutbox,
            OutboxRelay relay,
            Clock clock,
            StateMetrics metrics,
            WebhookQueue webhooks,
            AuditTrail audit) {
        this.credentials = credentials;
        this.models = models;
        this.processedEvents = processedEvents;
        this.timeline = timeline;
        this.stateOutbox = stateOutbox;
        this.relay = relay;
        this.clock = clock;
        this.metrics = metrics;
        this.webhooks = webhooks;
        this.audit = audit;
    }

    /**
     * Applies the event in its own transaction and, once that committed, starts publishing the new
     * snapshot. Use this outside a transaction.
     *
     * @throws UnknownCredentialException (as the Uni's failure) when the credential does not exist
     */
    public Uni<ApplyResult> apply(CredentialEvent event) {
        return apply(event, null);
    }

    /**
     * Applies an event read from {@code route.outcomes} at {@code position} (null: not from the
     * topic), with the fast path for a success that changes nothing ({@link ApplyResult.Kind#NO_OP}).
     *
     * @throws UnknownCredentialException (as the Uni's failure) when the credential does not exist
     */
    public Uni<ApplyResult> apply(CredentialEvent event, OutcomePosition position) {
        return apply(event, position, null);
    }

    /**
     * {@link #apply(CredentialEvent, OutcomePosition)} of a record sent at {@code sentAt} (its
     * Kafka timestamp; null: unknown): the snapshot of the change carries it as {@code
     * outcome_sent_at}, so each gateway times the outcome's way to its view.
     */
    public Uni<ApplyResult> apply(CredentialEvent event, OutcomePosition position, Instant sentAt) {
        if (position != null && event instanceof AttemptSucceeded success && hasEnvelope(event)) {
            return acknowledgedIfNoOp(success)
                    .onItem()
                    .ifNull()
                    .switchTo(() -> applyCommitted(event, position, sentAt));
        }
        return applyCommitted(event, position, sentAt);
    }

    /** The fast path: one read, no transaction, no write; null when the success has something to clear. */
    private Uni<ApplyResult> acknowledgedIfNoOp(AttemptSucceeded success) {
        return Panache.withSession(() -> credentials.findWithModel(success.credentialId(), success.modelKey()))
                .onItem()
                .ifNull()
                .failWith(() -> new UnknownCredentialException(success.credentialId()))
                .map(found -> {
                    List<CredentialModelEntity> modelRows = found.model() == null ? List.of() : List.of(found.model());
                    CredentialHealth stored = StateRows.health(found.credential(), modelRows);
                    if (!SuccessShortcut.changesNothing(stored, success)) {
                        return null;
                    }
                    ApplyResult result = new ApplyResult(
                            success.eventId(),
                            found.credential().id,
                            ApplyResult.Kind.NO_OP,
                            found.credential().stateVersion,
                            List.of());
                    metrics.noOp();
                    return result;
                });
    }

    /** What one transaction did, and the outbox row it queued (null when nothing changed). */
    private record Applied(ApplyResult result, OutboxEntity queued) {

        static Applied nothingQueued(ApplyResult result) {
            return new Applied(result, null);
        }
    }

    private Uni<ApplyResult> applyCommitted(CredentialEvent event, OutcomePosition position, Instant sentAt) {
        Timer.Sample sample = metrics.startApply();
        return applyLockedTransaction(event, position, sentAt)
                .invoke(applied -> {
                    metrics.applied(sample, applied.result());
                    if (applied.queued() != null) {
                        // committed: the snapshot leaves now instead of after a relay round reads it back
                        relay.publishCommitted(applied.queued());
                    }
                })
                .map(Applied::result);
    }

    /**
     * Applies the event inside the caller's transaction if there is one (else in a new one). The
     * snapshot is queued in the same transaction; it is published after the commit, by the relay's
     * next round.
     *
     * @return {@link ApplyResult.Kind#DUPLICATE} when the event id was applied before (nothing is
     *     written), {@link ApplyResult.Kind#UNCHANGED} when the transition changed nothing stored
     * @throws UnknownCredentialException (as the Uni's failure) when the credential does not exist
     */
    public Uni<ApplyResult> applyInTransaction(CredentialEvent event) {
        return applyLockedTransaction(event, null, null).map(Applied::result);
    }

    private static boolean hasEnvelope(CredentialEvent event) {
        return event.eventId() != null && event.credentialId() != null && event.occurredAt() != null;
    }

    private Uni<Applied> applyLockedTransaction(CredentialEvent event, OutcomePosition position, Instant sentAt) {
        if (!hasEnvelope(event)) {
            return Uni.createFrom()
                    .failure(new PoisonMessageException(
                            "event_id, credential_id and occurred_at are required (" + event.type() + ")"));
        }
        return Panache.withTransaction(() -> credentials
                .findForUpdate(event.credentialId())
                .onItem()
                .ifNull()
                .failWith(() -> new UnknownCredentialException(event.credentialId()))
                .flatMap(row -> {
                    if (event instanceof AttemptSucceeded
                            && SuccessShortcut.isReplay(StateRows.outcomePosition(row), position)) {
                        // an older success delivered again (it may have been acknowledged as a no-op
                        // without an idempotency row): a change after it is newer, keep it
                        return Uni.createFrom()
                                .item(Applied.nothingQueued(new ApplyResult(
                                        event.eventId(), row.id, ApplyResult.Kind.STALE, row.stateVersion, List.of())));
                    }
                    Instant now = clock.instant();
                    // under the row lock: a concurrent redelivery waits here and then finds the id
                    return processedEvents
                            .recordIfNewReading(event.eventId(), row.id, event.type(), now)
                            .flatMap(recorded -> recorded.isNew()
                                    ? askForRefreshOnUnauthorized(row, event, now)
                                            .flatMap(ignored -> applyLocked(row, event, position, sentAt, recorded))
                                    : Uni.createFrom()
                                            .item(Applied.nothingQueued(new ApplyResult(
                                                    event.eventId(),
                                                    row.id,
                                                    ApplyResult.Kind.DUPLICATE,
                                                    row.stateVersion,
                                                    List.of()))));
                }));
    }

    /**
     * The 401 hook of the token lifecycle: an upstream 401 about the access token an OAuth-managed
     * official credential holds now ({@link RefreshPlan#asksForRefresh}: the token was issued before
     * the failure) sets {@code refresh_due_at}, in this transaction, so the refresher renews it at
     * its next tick. A 401 about an older token is already answered by the newer one.
     */
    private Uni<Void> askForRefreshOnUnauthorized(CredentialEntity row, CredentialEvent event, Instant now) {
        if (!(event instanceof TransientFailureRecorded failure)
                || row.oauthState == null
                || !CredentialKind.OFFICIAL.wire().equals(row.kind)
                || failure.status() == null
                || failure.status() != 401) {
            return Uni.createFrom().voidItem();
        }
        return Panache.getSession()
                .flatMap(session -> session.find(CredentialOAuthEntity.class, row.id))
                .invoke(oauth -> {
                    if (oauth != null
                            && RefreshPlan.asksForRefresh(failure.status(), oauth.tokenIssuedAt, failure.occurredAt())
                            && (oauth.refreshDueAt == null || oauth.refreshDueAt.isAfter(now))) {
                        oauth.refreshDueAt = now;
                    }
                })
                .replaceWithVoid();
    }

    private Uni<Applied> applyLocked(
            CredentialEntity row, CredentialEvent event, OutcomePosition position, Instant sentAt, Recorded recorded) {
        RuntimeSettings runtime = RuntimeSettings.fromStored(recorded.settings());
        return models.listForCredential(row.id).flatMap(modelRows -> {
            CredentialProfile profile = StateRows.profile(row, runtime.blacklistThreshold());
            CredentialHealth before = StateRows.health(row, modelRows);
            Transition transition = StateTransition.apply(profile, before, event);
            HealthDiff diff = HealthDiff.between(before, transition.next());
            if (!diff.changesState()) {
                // recorded as processed (a redelivered success must never undo a later failure), no new version
                return Uni.createFrom()
                        .item(Applied.nothingQueued(new ApplyResult(
                                event.eventId(), row.id, ApplyResult.Kind.UNCHANGED, row.stateVersion, List.of())));
            }
            if (position != null) {
                // written in the same UPDATE as the health columns; overwritten, not maxed:
                // after the topic was recreated its offsets start again, and the first change
                // read from it moves the mark back
                row.outcomePartition = position.partition();
                row.outcomeOffset = position.offset();
            }
            return write(row, modelRows, diff, transition, event, recorded.groupIds(), sentAt)
                    .map(queued -> new Applied(
                            new ApplyResult(
                                    event.eventId(),
                                    row.id,
                                    ApplyResult.Kind.CHANGED,
                                    row.stateVersion,
                                    transition.changes()),
                            queued));
        });
    }

    /** Writes what changed and queues the snapshot; the queued outbox row. */
    private Uni<OutboxEntity> write(
            CredentialEntity row,
            List<CredentialModelEntity> modelRows,
            HealthDiff diff,
            Transition transition,
            CredentialEvent event,
            List<String> groupIds,
            Instant sentAt) {
        if (diff.account() != null) {
            StateRows.writeAccount(row, diff.account());
        }
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String key : diff.deletions()) {
            CredentialModelEntity doomed = find(modelRows, key);
            chain = chain.flatMap(ignored -> models.delete(doomed));
        }
        for (ModelState model : diff.upserts()) {
            CredentialModelEntity existing = find(modelRows, model.modelKey());
            if (existing != null) {
                StateRows.writeModel(existing, model);
            } else {
                chain = chain.flatMap(ignored ->
                        models.persist(StateRows.newModelRow(row.id, model)).replaceWithVoid());
            }
        }
        for (HealthChange change : transition.changes()) {
            chain = chain.flatMap(ignored ->
                    timeline.persist(timelineLine(row.id, change, event)).replaceWithVoid());
        }
        // the changes that need a person notify, in this transaction (NotificationRules)
        chain = chain.flatMap(ignored -> webhooks.queue(
                NotificationRules.forChanges(row.id, event.eventId(), event.occurredAt(), transition.changes())));
        // recovery's own decisions (a scheduled reactivation, an automatic healthcheck) are audited as
        // the service's writes, in this transaction
        chain = chain.flatMap(ignored -> audit.service(ServiceWrites.recovery(event, transition.changes())));
        return chain.flatMap(ignored -> stateOutbox.queueCredentialChange(row, transition.next(), groupIds, sentAt));
    }

    private static CredentialModelEntity find(List<CredentialModelEntity> rows, String modelKey) {
        for (CredentialModelEntity row : rows) {
            if (row.modelKey.equals(modelKey)) {
                return row;
            }
        }
        return null;
    }

    private static TimelineEntity timelineLine(String credentialId, HealthChange change, CredentialEvent event) {
        TimelineEntity line = new TimelineEntity();
        line.credentialId = credentialId;
        line.modelKey = change.modelKey();
        line.occurredAt = event.occurredAt();
        line.fromCondition = change.from();
        line.toCondition = change.to();
        line.cause = change.cause();
        line.until = change.until();
        line.detail = change.detail();
        line.eventId = event.eventId();
        return line;
    }
}
