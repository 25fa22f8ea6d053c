package io.routegateway.state.publish;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.routegateway.state.metrics.StateMetrics;
import io.routegateway.state.repository.OutboxEntity;
import io.routegateway.state.repository.OutboxRepository;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

/**
 * Publishes {@code state_outbox} rows to their compacted topics and deletes them once the broker
 * acknowledged them. A row survives any crash between the commit that wrote it and its publication
 * and is sent by a later round, so no committed state is ever lost to the topics.
 *
 * <p>A round runs in one transaction that first takes a transaction-scoped advisory lock, so one
 * relay publishes at a time across all replicas (two relays could interleave an old and a new
 * snapshot of one key). It sends only the newest row per key ({@link LatestPerKey}), waits for the
 * acknowledgements, returns to its Vert.x context (Hibernate Reactive must not continue on the Kafka
 * client thread, HR000069) and deletes what was acknowledged. Rounds run after each commit that
 * queued a row ({@link #trigger}) and on a short poll interval; triggers during a round coalesce into
 * one more round.
 *
 * <p>A writer that knows the row it just committed hands it to {@link #publishCommitted} instead:
 * when no round is running here, that row is sent at once, without a round's transaction and
 * without reading the outbox back. It takes the same advisory lock, at session level (held past
 * no transaction, released right after the acknowledgement), so it never interleaves with a round
 * of any replica; once acknowledged, it deletes the row and the older rows of its key it supersedes.
 * Anything else (the lock is taken, the send fails, the row is too large) leaves the row to a round,
 * exactly as if it had been triggered.
 *
 * <p>A row that can never be published ({@link Publishability}: larger than {@code
 * state.outbox.max-message-bytes}, or refused by the producer or broker as such) is not retried: it
 * is marked failed ({@code failed_at}, {@code failure}) together with the older rows of its key it
 * supersedes being deleted, counted ({@code state.outbox.dead_lettered}, gauge {@code state.outbox.failed};
 * {@link StateMetrics}), reported
 * by the {@code state-outbox} readiness check's data, and skipped by every later round, so the rows
 * behind it are published. A newer row of the same key is published as usual.
 */
@ApplicationScoped
public class OutboxRelay {

    /** The advisory lock key of the relay ("outbox" in ASCII). */
    static final long LOCK_KEY = 0x6f7574626f78L;

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    private final OutboxRepository outbox;
    private final StateTopicSender sender;
    private final Vertx vertx;
    private final Clock clock;
    private final OutboxConfig config;
    private final StateMetrics metrics;
    // deliberately concurrent: triggers arrive from any thread, rounds run one at a time
    private final AtomicBoolean ready = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean requested = new AtomicBoolean();
    private final AtomicLong size = new AtomicLong();
    private final AtomicLong failedRows = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();

    /** One sent (or refused) row: {@code failure} null = acknowledged, else why it can never be published. */
    private record Sent(OutboxEntity row, String failure) {}

    public OutboxRelay(
            OutboxRepository outbox,
            StateTopicSender sender,
            Vertx vertx,
            Clock clock,
            OutboxConfig config,
            StateMetrics metrics) {
        this.outbox = outbox;
        this.sender = sender;
        this.vertx = vertx;
        this.clock = clock;
        this.config = config;
        this.metrics = metrics;
        metrics.outboxGauges(size::get, failedRows::get);
    }

    /** Starts publishing: called once the compacted topics exist. */
    void start() {
        ready.set(true);
        trigger();
    }

    /** Asks for a round now; a round already running is followed by one more. Never blocks. */
    public void trigger() {
        requested.set(true);
        if (ready.get() && running.compareAndSet(false, true)) {
            startRound();
        }
    }

    /**
     * Publishes a row its writer's transaction just committed, without waiting for a round (see the
     * class comment); falls back to {@link #trigger} when a round is running. Never blocks.
     */
    public void publishCommitted(OutboxEntity row) {
        if (!ready.get()
                || Publishability.tooLarge(row.messageKey, row.payload, config.maxMessageBytes()) != null
                || !running.compareAndSet(false, true)) {
            trigger();
            return;
        }
        Context context = newRoundContext();
        context.runOnContext(ignored -> publishNow(row, context).subscribe().with(sent -> finished(false), failure -> {
            LOG.warnf("Publishing a committed row failed, it stays for the next round: %s", failure.toString());
            finished(false);
        }));
    }

    @Scheduled(
            identity = "state-outbox-poll",
            every = "${state.outbox.poll-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        trigger();
    }

    private void startRound() {
        requested.set(false);
        Context context = newRoundContext();
        context.runOnContext(ignored -> round(context).subscribe().with(full -> finished(full), failure -> {
            LOG.warnf("Outbox relay round failed, the rows stay for the next round: %s", failure.toString());
            finished(false);
        }));
    }

    /**
     * A fresh duplicated context: its own Hibernate Reactive session, never a caller's; flagged safe
     * (isolated), as Hibernate Reactive Panache requires.
     */
    private Context newRoundContext() {
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        return context;
    }

    /**
     * Sends one committed row under the session-level relay lock and deletes what it covers once
     * acknowledged. One statement before the send (the lock) instead of a round's begin, lock and read.
     */
    private Uni<Void> publishNow(OutboxEntity row, Context context) {
        Executor onContext = command -> context.runOnContext(ignored -> command.run());
        return Panache.withSession(() -> lockQuery("pg_try_advisory_lock").flatMap(locked -> {
            if (!locked) {
                // a round of another replica is publishing; the poll picks the row up after it
                return Uni.createFrom().voidItem();
            }
            return sender.send(row.topic, row.messageKey, row.payload)
                    .map(ignored -> acknowledged(row))
                    .onFailure()
                    .recoverWithItem(failure -> notAcknowledged(row, failure))
                    .emitOn(onContext)
                    .flatMap(sent -> {
                        if (sent == null) {
                            // not acknowledged: a later round retries it
                            return Uni.createFrom().voidItem();
                        }
                        if (sent.failure() != null) {
                            // refused for good: the round that follows sends it once more and marks it failed
                            requested.set(true);
                            return Uni.createFrom().voidItem();
                        }
                        return Panache.withTransaction(() -> outbox.deleteCovered(row))
                                .replaceWithVoid();
                    })
                    .eventually(() -> lockQuery("pg_advisory_unlock")
                            .invoke(released -> {
                                if (!released) {
                                    LOG.warn("The session-level outbox relay lock was not held at release");
                                }
                            })
                            .replaceWithVoid());
        }));
    }

    private void finished(boolean full) {
        running.set(false);
        if ((full || requested.get()) && running.compareAndSet(false, true)) {
            startRound();
        }
    }

    /** One round; true when it read a full batch (more rows are probably waiting). */
    private Uni<Boolean> round(Context context) {
        Executor onContext = command -> context.runOnContext(ignored -> command.run());
        int batchSize = config.batchSize();
        return Panache.withTransaction(() -> tryLock().flatMap(locked -> {
            if (!locked) {
                return Uni.createFrom().item(false);
            }
            return outbox.oldest(batchSize)
                    .flatMap(rows -> publish(rows, onContext)
                            .flatMap(ids -> outbox.deleteByIds(ids))
                            .flatMap(deleted -> outbox.countPending())
                            .invoke(size::set)
                            .flatMap(pending -> outbox.countFailed())
                            .invoke(failedRows::set)
                            .map(failedCount -> rows.size() == batchSize));
        }));
    }

    private static Uni<Boolean> tryLock() {
        return lockQuery("pg_try_advisory_xact_lock");
    }

    /** Calls one of PostgreSQL's advisory lock functions on the relay's key. */
    private static Uni<Boolean> lockQuery(String function) {
        return Panache.getSession()
                .flatMap(
                        session -> session.createNativeQuery("select " + function + "(" + LOCK_KEY + ")", Boolean.class)
                                .getSingleResult());
    }

    /**
     * Sends the newest row of each key; returns the ids to delete: those the acknowledgements cover,
     * and the superseded rows of a key whose newest row was just marked failed.
     */
    private Uni<List<Long>> publish(List<OutboxEntity> rows, Executor onContext) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<OutboxEntity> latest = LatestPerKey.select(rows);
        List<Uni<Sent>> sends = new ArrayList<>(latest.size());
        for (OutboxEntity row : latest) {
            String tooLarge = Publishability.tooLarge(row.messageKey, row.payload, config.maxMessageBytes());
            if (tooLarge != null) {
                sends.add(Uni.createFrom().item(new Sent(row, tooLarge)));
                continue;
            }
            sends.add(sender.send(row.topic, row.messageKey, row.payload)
                    .map(ignored -> acknowledged(row))
                    .onFailure()
                    .recoverWithItem(failure -> notAcknowledged(row, failure)));
        }
        return Uni.join()
                .all(sends)
                .andFailFast()
                // back on the round's Vert.x context before Hibernate Reactive continues
                .emitOn(onContext)
                .map(results -> {
                    List<OutboxEntity> acknowledged = new ArrayList<>();
                    List<OutboxEntity> failedNow = new ArrayList<>();
                    for (Sent sent : results) {
                        if (sent == null) {
                            continue;
                        }
                        if (sent.failure() == null) {
                            acknowledged.add(sent.row());
                        } else {
                            markFailed(sent.row(), sent.failure());
                            failedNow.add(sent.row());
                        }
                    }
                    List<Long> ids = new ArrayList<>(LatestPerKey.covered(rows, acknowledged));
                    for (Long superseded : LatestPerKey.covered(rows, failedNow)) {
                        if (failedNow.stream().noneMatch(row -> row.id.equals(superseded))) {
                            ids.add(superseded);
                        }
                    }
                    return ids;
                });
    }

    /** The managed row is updated when the round's transaction commits. */
    private void markFailed(OutboxEntity row, String reason) {
        row.failedAt = clock.instant();
        row.failure = reason;
        metrics.outboxDeadLettered();
        String where = row.topic + " key " + row.messageKey + " (outbox row " + row.id + ")";
        lastFailure.set(where + ": " + reason);
        LOG.warnf("Publishing %s can never succeed, the row is marked failed and skipped: %s", where, reason);
    }

    /** Rows marked failed after the last round (0 before the first). */
    public long failedRows() {
        return failedRows.get();
    }

    /** Rows waiting after the last round. */
    public long pendingRows() {
        return size.get();
    }

    /** The last row marked failed by this replica and why, or null. */
    public String lastFailure() {
        return lastFailure.get();
    }

    private Sent acknowledged(OutboxEntity row) {
        metrics.outboxPublished(Duration.between(row.createdAt, clock.instant()));
        return new Sent(row, null);
    }

    /** A refusal that will come back every round is returned as such; anything else is retried later (null). */
    private Sent notAcknowledged(OutboxEntity row, Throwable failure) {
        String permanent = Publishability.permanentFailure(failure);
        if (permanent != null) {
            return new Sent(row, permanent);
        }
        metrics.outboxSendFailed();
        LOG.warnf(
                "Publishing %s key %s (outbox row %d) failed, retrying in a later round: %s",
                row.topic, row.messageKey, row.id, failure.toString());
        return null;
    }
}
