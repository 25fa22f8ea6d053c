package io.routegateway.state.webhook;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.core.crypto.SecretBox;
import io.routegateway.core.webhook.TargetPolicy;
import io.routegateway.state.identity.AuditTrail;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Inputs;
import io.routegateway.state.web.JsonBody;
import io.routegateway.state.web.Page;
import io.routegateway.state.web.Paging;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The webhook endpoints and their delivery log. The secret is sealed before it is stored and is
 * never read back by this class: views say only that one is set.
 */
@ApplicationScoped
public class WebhookAdminService {

    /** Most endpoints listed (one page: an installation has a handful). */
    static final int MAX_ENDPOINTS = 200;

    private static final String COLUMNS = "id, url, event_types, format, enabled, created_at, updated_at";

    private final Pool pool;
    private final AuditTrail audit;
    private final SecretBox secretBox;
    private final Clock clock;
    private final TargetPolicy policy;

    WebhookAdminService(Pool pool, SecretBox secretBox, Clock clock, WebhookConfig config, AuditTrail audit) {
        this.pool = pool;
        this.audit = audit;
        this.secretBox = secretBox;
        this.clock = clock;
        this.policy = WebhookDeliverer.policyOf(config);
    }

    public Uni<Page<WebhookView>> list() {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM webhook_endpoints ORDER BY created_at, id LIMIT $1")
                .execute(Tuple.of(MAX_ENDPOINTS))
                .map(rows -> new Page<>(views(rows), null));
    }

    public Uni<WebhookView> get(String id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE id = $1")
                .execute(Tuple.of(id))
                .map(rows -> one(rows, id));
    }

    public Uni<WebhookView> create(JsonBody<WebhookInput> body) {
        WebhookRules.NewEndpoint checked = WebhookRules.create(body, policy);
        OffsetDateTime now = now();
        String sealed = secretBox.seal(WebhookSecrets.binding(checked.id()), checked.secret());
        return pool.withTransaction(connection -> connection
                .preparedQuery("INSERT INTO webhook_endpoints"
                        + " (id, url, event_types, secret_sealed, format, enabled, created_at, updated_at)"
                        + " VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (id) DO NOTHING RETURNING " + COLUMNS)
                .execute(Tuple.tuple()
                        .addValue(checked.id())
                        .addValue(checked.url())
                        .addValue(checked.eventTypes().toArray(String[]::new))
                        .addValue(sealed)
                        .addValue(checked.format())
                        .addValue(checked.enabled())
                        .addValue(now))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw AdminException.conflict("webhook " + checked.id() + " already exists");
                    }
                    return view(rows.iterator().next());
                })
                .call(created -> audit.appendWith(connection, created.id(), null, created)));
    }

    /** The endpoint's view read on {@code connection}; null when it does not exist. */
    private static Uni<WebhookView> current(SqlConnection connection, String id) {
        return connection
                .preparedQuery("SELECT " + COLUMNS + " FROM webhook_endpoints WHERE id = $1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? null : view(rows.iterator().next()));
    }

    public Uni<WebhookView> update(String id, JsonBody<WebhookInput> body) {
        WebhookRules.Changes changes = WebhookRules.update(id, body, policy);
        String sealed = changes.secret() == null ? null : secretBox.seal(WebhookSecrets.binding(id), changes.secret());
        return pool.withTransaction(connection -> current(connection, id)
                .flatMap(before -> connection
                        .preparedQuery("UPDATE webhook_endpoints SET"
                                + " url = COALESCE($2, url), event_types = COALESCE($3, event_types),"
                                + " secret_sealed = COALESCE($4, secret_sealed), format = COALESCE($5, format),"
                                + " enabled = COALESCE($6, enabled), updated_at = $7 WHERE id = $1 RETURNING "
                                + COLUMNS)
                        .execute(Tuple.tuple()
                                .addValue(id)
                                .addValue(changes.url())
                                .addValue(
                                        changes.eventTypes() == null
                                                ? null
                                                : changes.eventTypes().toArray(String[]::new))
                                .addValue(sealed)
                                .addValue(changes.format())
                                .addValue(changes.enabled())
                                .addValue(now()))
                        .map(rows -> one(rows, id))
                        .call(after -> audit.appendWith(connection, id, before, after))));
    }

    /** Deletes the endpoint and its delivery log (pending deliveries are dropped). */
    public Uni<Void> delete(String id) {
        return pool.withTransaction(connection -> current(connection, id)
                .flatMap(before -> connection
                        .preparedQuery("DELETE FROM webhook_endpoints WHERE id = $1")
                        .execute(Tuple.of(id))
                        .map(rows -> {
                            if (rows.rowCount() == 0) {
                                throw notFound(id);
                            }
                            return before;
                        })
                        .call(deleted -> audit.appendWith(connection, id, deleted, null))
                        .replaceWithVoid()));
    }

    /** The endpoint's deliveries, newest first; {@code cursor} is the previous page's {@code next_cursor}. */
    public Uni<Page<DeliveryView>> deliveries(String id, String limitSent, String cursorSent) {
        int limit = Paging.limit(limitSent);
        Cursor after = Cursor.parse(cursorSent);
        return get(id).flatMap(endpoint -> pool.preparedQuery("SELECT id, notification_id, event_type, status,"
                        + " attempts, next_attempt_at, last_status, last_error, created_at, delivered_at"
                        + " FROM webhook_deliveries WHERE endpoint_id = $1"
                        + " AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::uuid))"
                        + " ORDER BY created_at DESC, id DESC LIMIT $4")
                .execute(Tuple.tuple()
                        .addValue(id)
                        .addValue(after == null ? null : after.createdAt().atOffset(ZoneOffset.UTC))
                        .addValue(after == null ? null : after.id())
                        .addValue(limit + 1))
                .map(rows -> {
                    List<DeliveryView> items = new ArrayList<>();
                    for (Row row : rows) {
                        items.add(new DeliveryView(
                                row.getUUID("id"),
                                row.getUUID("notification_id"),
                                row.getString("event_type"),
                                row.getString("status"),
                                row.getInteger("attempts"),
                                instant(row.getOffsetDateTime("next_attempt_at")),
                                row.getInteger("last_status"),
                                row.getString("last_error"),
                                instant(row.getOffsetDateTime("created_at")),
                                instant(row.getOffsetDateTime("delivered_at"))));
                    }
                    if (items.size() <= limit) {
                        return new Page<>(items, null);
                    }
                    DeliveryView last = items.get(limit - 1);
                    return new Page<>(items.subList(0, limit), new Cursor(last.createdAt(), last.id()).toString());
                }));
    }

    /** Position after the last delivery of a page: {@code <epoch µs>_<uuid>}. */
    record Cursor(Instant createdAt, UUID id) {

        @Override
        public String toString() {
            return (createdAt.getEpochSecond() * 1_000_000 + createdAt.getNano() / 1_000) + "_" + id;
        }

        static Cursor parse(String sent) {
            if (sent == null || sent.isBlank()) {
                return null;
            }
            try {
                if (sent.length() > Inputs.MAX_QUERY_VALUE) {
                    throw new IllegalArgumentException("long");
                }
                int split = sent.indexOf('_');
                long micros = Long.parseLong(sent.substring(0, split));
                return new Cursor(
                        Instant.EPOCH.plus(micros, ChronoUnit.MICROS), UUID.fromString(sent.substring(split + 1)));
            } catch (RuntimeException e) {
                throw AdminException.invalid(AdminCodes.QUERY, "cursor must be the next_cursor of a previous page");
            }
        }
    }

    private OffsetDateTime now() {
        // TIMESTAMPTZ keeps microseconds: what is returned is what the row holds
        return clock.instant().truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
    }

    private static WebhookView one(RowSet<Row> rows, String id) {
        if (rows.size() == 0) {
            throw notFound(id);
        }
        return view(rows.iterator().next());
    }

    private static List<WebhookView> views(RowSet<Row> rows) {
        List<WebhookView> out = new ArrayList<>();
        for (Row row : rows) {
            out.add(view(row));
        }
        return out;
    }

    private static WebhookView view(Row row) {
        return new WebhookView(
                row.getString("id"),
                row.getString("url"),
                Arrays.asList(row.getArrayOfStrings("event_types")),
                row.getString("format"),
                row.getBoolean("enabled"),
                true,
                instant(row.getOffsetDateTime("created_at")),
                instant(row.getOffsetDateTime("updated_at")));
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }

    private static AdminException notFound(String id) {
        return new AdminException(
                404, AdminCodes.NOT_FOUND, Inputs.isId(id) ? "webhook " + id + " does not exist" : "no such webhook");
    }
}
