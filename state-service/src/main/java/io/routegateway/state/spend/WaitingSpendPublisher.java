package io.routegateway.state.spend;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;
import io.routegateway.state.publish.OutboxRelay;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import org.jboss.logging.Logger;

/**
 * Publishes the spend snapshots {@link SpendThrottle} held back, once their subject's interval has
 * passed: the window's totals as stored then, in a transaction that locks the rows the way a usage
 * batch does, so versions and outbox ids still grow together.
 */
@ApplicationScoped
public class WaitingSpendPublisher {

    private static final Logger LOG = Logger.getLogger(WaitingSpendPublisher.class);

    private final Pool pool;
    private final SpendLedger ledger;
    private final OutboxRelay relay;

    WaitingSpendPublisher(Pool pool, SpendLedger ledger, OutboxRelay relay) {
        this.pool = pool;
        this.ledger = ledger;
        this.relay = relay;
    }

    @Scheduled(
            identity = "state-spend-waiting",
            every = "0.2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> publishWaiting() {
        List<SpendRules.Subject> due = ledger.throttle().due(System.nanoTime());
        if (due.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return pool.withTransaction(connection -> ledger.publishCurrent(connection, due))
                .invoke(queued -> {
                    if (queued) {
                        relay.trigger();
                    }
                })
                .onFailure()
                .recoverWithItem(failure -> {
                    // a passing database failure: they wait for the next round
                    LOG.debugf(failure, "%d spend snapshots not published yet", due.size());
                    ledger.throttle().retry(due);
                    return false;
                })
                .replaceWithVoid();
    }
}
