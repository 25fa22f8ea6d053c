package io.routegateway.state.outcome;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

/** Deletes {@code processed_events} rows older than {@code state.idempotency.retention}, hourly. */
@ApplicationScoped
public class ProcessedEventRetention {

    private static final Logger LOG = Logger.getLogger(ProcessedEventRetention.class);

    private final IdempotencyConfig config;
    private final Clock clock;

    public ProcessedEventRetention(IdempotencyConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    @Scheduled(identity = "state-processed-events-retention", every = "1h", delayed = "1m")
    Uni<Void> prune() {
        OffsetDateTime cutoff = OffsetDateTime.ofInstant(clock.instant().minus(config.retention()), ZoneOffset.UTC);
        // applied_at is TEXT (Instant.toString()): compared as a timestamp, never as text
        return Panache.withTransaction(() -> Panache.getSession()
                        .flatMap(session -> session.createNativeQuery(
                                        "DELETE FROM processed_events WHERE applied_at::timestamptz < :cutoff")
                                .setParameter("cutoff", cutoff)
                                .executeUpdate()))
                .invoke(deleted -> {
                    if (deleted > 0) {
                        LOG.infof("Forgot %d applied event ids older than %s", deleted, cutoff);
                    }
                })
                .replaceWithVoid();
    }
}
