package io.routegateway.recovery.schedule;

import java.util.concurrent.atomic.AtomicReference;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import org.jboss.logging.Logger;

/**
 * Leader election among recovery-service replicas with a PostgreSQL session advisory lock: the
 * replica whose own, dedicated connection holds {@code pg_try_advisory_lock(key)} is the leader.
 * The lock lives exactly as long as that database session, so a leader that dies (process, pod or
 * network) loses it with its session and a standby's next attempt wins. A pooled connection would
 * not do: returning it to the pool keeps the session, and the lock, alive.
 *
 * <p>Standbys open a connection per attempt and close it when the lock is taken, so they hold no
 * idle session. Thread-safe: the held connection is the only state.
 */
public final class AdvisoryLockLeadership implements AutoCloseable {

    /** What one attempt found. */
    public enum Lead {
        /** This attempt took the lock: a new term starts, with empty in-memory clocks. */
        ACQUIRED,
        /** This replica already held the lock and its session is still alive. */
        HELD,
        /** Another replica holds the lock, or the database could not be reached. */
        STANDBY;

        public boolean isLeader() {
            return this != STANDBY;
        }
    }

    private static final Logger LOG = Logger.getLogger(AdvisoryLockLeadership.class);

    private final Vertx vertx;
    private final PgConnectOptions options;
    private final long lockKey;
    private final AtomicReference<PgConnection> held = new AtomicReference<>();

    public AdvisoryLockLeadership(Vertx vertx, PgConnectOptions options, long lockKey) {
        this.vertx = vertx;
        this.options = options;
        this.lockKey = lockKey;
    }

    public long lockKey() {
        return lockKey;
    }

    /** Whether this replica held the lock at its last attempt and the session has not ended since. */
    public boolean isLeader() {
        return held.get() != null;
    }

    /**
     * Checks that the held session is alive, or tries to take the lock. Never fails: a database
     * that cannot be reached means standing by.
     */
    public Uni<Lead> tryLead() {
        PgConnection current = held.get();
        if (current == null) {
            return acquire();
        }
        return current.query("SELECT 1")
                .execute()
                .replaceWith(Lead.HELD)
                .onFailure()
                .recoverWithUni(failure -> {
                    LOG.warnf("Lost the recovery leader session (%s); trying to lead again", failure.getMessage());
                    release(current);
                    return acquire();
                });
    }

    private Uni<Lead> acquire() {
        return PgConnection.connect(vertx, options)
                .chain(connection -> connection
                        .preparedQuery("SELECT pg_try_advisory_lock($1)")
                        .execute(Tuple.of(lockKey))
                        .map(rows -> rows.iterator().next().getBoolean(0))
                        .chain(locked -> {
                            if (Boolean.TRUE.equals(locked) && held.compareAndSet(null, connection)) {
                                connection.closeHandler(() -> {
                                    if (held.compareAndSet(connection, null)) {
                                        LOG.warn("The recovery leader session ended; standing by");
                                    }
                                });
                                LOG.infof("Leading recovery (advisory lock %d)", lockKey);
                                return Uni.createFrom().item(Lead.ACQUIRED);
                            }
                            return connection.close().replaceWith(Lead.STANDBY);
                        })
                        .onFailure()
                        .call(connection::close))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf("Could not try the recovery leader lock: %s", failure.getMessage());
                    return Lead.STANDBY;
                });
    }

    private void release(PgConnection connection) {
        if (held.compareAndSet(connection, null)) {
            connection.close().subscribe().with(ignored -> {}, ignored -> {});
        }
    }

    /** Ends the session, which releases the lock at once for the other replicas. */
    @Override
    public void close() {
        PgConnection connection = held.getAndSet(null);
        if (connection != null) {
            connection.closeAndAwait();
        }
    }
}
