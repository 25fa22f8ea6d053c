package io.routegateway.state.audit;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.web.RowExport;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * {@code GET /admin/v1/audit/export}: the audit entries of a time range, oldest first, as CSV or NDJSON,
 * streamed like the request logs' export ({@link RowExport}), with the listing's filters. The before/after
 * diffs are the stored JSON text (secrets were redacted when the entry was written).
 */
@ApplicationScoped
public class AuditExport {

    static final List<String> COLUMNS = List.of(
            "id",
            "occurred_at",
            "subject",
            "via",
            "token_id",
            "method",
            "path",
            "resource_type",
            "resource_id",
            "before_json",
            "after_json",
            "request_id");

    private static final String SELECT = "SELECT id, to_char(occurred_at AT TIME ZONE 'UTC',"
            + " 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') AS occurred_at, subject, via, token_id, method, path,"
            + " resource_type, resource_id, before_json, after_json, request_id FROM audit_log";

    private final Pool pool;

    AuditExport(Pool pool) {
        this.pool = pool;
    }

    public Multi<String> stream(AuditRules.Export export) {
        AuditRules.Filter filter = export.filter();
        List<Object> args = new ArrayList<>();
        List<String> where = new ArrayList<>();
        where.add("occurred_at >= $" + add(args, utc(filter.from())));
        where.add("occurred_at < $" + add(args, utc(filter.to())));
        if (filter.subject() != null) {
            where.add("subject = $" + add(args, filter.subject()));
        }
        if (filter.resourceType() != null) {
            where.add("resource_type = $" + add(args, filter.resourceType()));
        }
        if (filter.resourceId() != null) {
            where.add("resource_id = $" + add(args, filter.resourceId()));
        }
        String sql = SELECT + " WHERE " + String.join(" AND ", where) + " ORDER BY id";
        return RowExport.stream(pool, sql, args, COLUMNS, export.csv());
    }

    private static int add(List<Object> args, Object value) {
        args.add(value);
        return args.size();
    }

    private static OffsetDateTime utc(java.time.Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
