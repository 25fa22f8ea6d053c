package io.routegateway.state.identity;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;
import io.routegateway.state.config.StateConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import org.jboss.logging.Logger;

/**
 * Deletes audit entries older than {@code state.audit.retention}. Every replica schedules it; one
 * runs it at a time: the round is one transaction that first takes the transaction-level advisory
 * lock {@link #LOCK_KEY} ({@code pg_try_advisory_xact_lock}); a replica that does not get it skips
 * the round (the pattern of {@code usage/LogMaintenance}).
 */
@ApplicationScoped
public class AuditRetention {

    /** The advisory lock of a pruning round ("audit"). */
    public static final long LOCK_KEY = 0x6175646974L;

    private static final Logger LOG = Logger.getLogger(AuditRetention.class);

    private final Pool pool;
    private final StateConfig config;
    private final Clock clock;

    AuditRetention(Pool pool, StateConfig config, Clock clock) {
        this.pool = pool;
        this.config = config;
        this.clock = clock;
    }

    @Scheduled(
            identity = "state-audit-retention",
            every = "${state.audit.prune-every:1h}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return prune(clock.instant())
                .onFailure()
                .invoke(failure -> LOG.warnf("Audit log pruning failed, retried next round: %s", failure.toString()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * One round as of {@code now}: how many entries were deleted, or -1 when another replica held the
     * lock.
     */
    public Uni<Long> prune(Instant now) {
        Instant cutoff = now.minus(config.audit().retention());
        return pool.withTransaction(connection -> connection
                .preparedQuery("SELECT pg_try_advisory_xact_lock($1) AS locked")
                .execute(Tuple.of(LOCK_KEY))
                .flatMap(rows -> rows.iterator().next().getBoolean("locked")
                        ? connection
                                .preparedQuery("DELETE FROM audit_log WHERE occurred_at < $1")
                                .execute(Tuple.of(cutoff.atOffset(ZoneOffset.UTC)))
                                .map(deleted -> (long) deleted.rowCount())
                        : Uni.createFrom().item(-1L)));
    }
}
