package io.routegateway.state.webhook;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.routegateway.core.json.Json;
import io.routegateway.core.webhook.Notification;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Queues notifications as pending deliveries, one per enabled endpoint subscribed to the type, in
 * the caller's transaction: the state change and its deliveries commit together, so a change is
 * never lost to a crash before its webhook and a rolled-back change never notifies. A notification
 * already queued for an endpoint is not queued again (its id is derived from its cause).
 */
@ApplicationScoped
public class WebhookQueue {

    /** Hibernate's native-query form (named parameters). */
    static final String INSERT_NAMED = "INSERT INTO webhook_deliveries"
            + " (id, endpoint_id, notification_id, event_type, payload, status, attempts, next_attempt_at, created_at)"
            + " SELECT gen_random_uuid(), e.id, CAST(:notification AS uuid), :type, :payload, 'pending', 0, :now, :now"
            + " FROM webhook_endpoints e WHERE e.enabled AND :type = ANY(e.event_types)"
            + " ON CONFLICT (endpoint_id, notification_id) DO NOTHING";

    /** The reactive client's form. */
    static final String INSERT_POSITIONAL = "INSERT INTO webhook_deliveries"
            + " (id, endpoint_id, notification_id, event_type, payload, status, attempts, next_attempt_at, created_at)"
            + " SELECT gen_random_uuid(), e.id, $1::uuid, $2, $3, 'pending', 0, $4, $4"
            + " FROM webhook_endpoints e WHERE e.enabled AND $2 = ANY(e.event_types)"
            + " ON CONFLICT (endpoint_id, notification_id) DO NOTHING";

    private final Clock clock;
    private final Pool pool;

    WebhookQueue(Clock clock, Pool pool) {
        this.clock = clock;
        this.pool = pool;
    }

    /**
     * In a transaction of its own: for a cause that is no database write (a record sent to a
     * dead-letter topic), queued once the cause happened.
     */
    public Uni<Void> queueAlone(Notification notification) {
        return pool.withTransaction(connection -> queue(connection, List.of(notification)));
    }

    /** In the current Hibernate Reactive transaction. */
    public Uni<Void> queue(List<Notification> notifications) {
        if (notifications.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Instant now = clock.instant();
        return Panache.getSession().flatMap(session -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Notification notification : notifications) {
                chain = chain.flatMap(ignored -> session.createNativeQuery(INSERT_NAMED)
                        .setParameter("notification", notification.id().toString())
                        .setParameter("type", notification.type())
                        .setParameter("payload", Json.write(notification))
                        .setParameter("now", now)
                        .executeUpdate()
                        .replaceWithVoid());
            }
            return chain;
        });
    }

    /** On {@code connection}, in its transaction. */
    public Uni<Void> queue(SqlConnection connection, List<Notification> notifications) {
        if (notifications.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Instant now = clock.instant();
        List<Tuple> rows = notifications.stream()
                .map(n -> Tuple.of(n.id().toString(), n.type(), Json.write(n), now.atOffset(java.time.ZoneOffset.UTC)))
                .toList();
        return connection.preparedQuery(INSERT_POSITIONAL).executeBatch(rows).replaceWithVoid();
    }
}
