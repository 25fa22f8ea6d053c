package io.routegateway.state.usage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.RowExport;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * {@code GET /admin/v1/usage/export}: the request logs or the per-minute rollups of a time range as
 * CSV or NDJSON, streamed by {@link RowExport}. The range is required and at most {@link #MAX_RANGE}; the
 * filters are the request log's.
 */
@ApplicationScoped
public class UsageExport {

    /** The longest range one export covers. */
    public static final Duration MAX_RANGE = Duration.ofDays(31);

    /** The query parameters the export takes; any other is {@code validation.unknown_field}. */
    static final Set<String> PARAMETERS = Set.of(
            "kind",
            "format",
            "from",
            "to",
            "access_key_id",
            "credential_id",
            "group_id",
            "model",
            "success",
            "reason_code",
            "probe",
            "team_id");

    private static final String ROLLUP_COLUMNS = "minute_epoch_ms, access_key_id, team_id, group_id,"
            + " credential_id, requested_model, model_key, status_class, reason_code, success, probe, requests,"
            + " failures, probes, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
            + " reasoning_tokens, cost_micros, latency_ms_sum, ttft_ms_sum, ttft_count, latency_b00, latency_b01,"
            + " latency_b02, latency_b03, latency_b04, latency_b05, latency_b06, latency_b07, latency_b08,"
            + " latency_b09, latency_b10, latency_b11";

    /** What is exported and how. */
    public record Request(boolean rollups, boolean csv, RequestFilter filter) {

        public String contentType() {
            return RowExport.contentType(csv);
        }
    }

    private final Pool pool;

    UsageExport(Pool pool) {
        this.pool = pool;
    }

    /** Checks the parameters; every refusal is a 400 before anything is read. */
    public static Request request(Set<String> sent, String kind, String format, RequestFilter filter) {
        RowExport.refuseUnknown(sent, PARAMETERS);
        String k = kind == null || kind.isBlank() ? "requests" : kind.strip();
        if (!k.equals("requests") && !k.equals("rollups")) {
            throw AdminException.invalid(AdminCodes.QUERY, "kind must be requests or rollups");
        }
        String f = format == null || format.isBlank() ? "csv" : format.strip();
        if (!f.equals("csv") && !f.equals("ndjson")) {
            throw AdminException.invalid(AdminCodes.QUERY, "format must be csv or ndjson");
        }
        if (filter.from() == null || filter.to() == null) {
            throw AdminException.invalid(AdminCodes.QUERY, "from and to are required");
        }
        if (Duration.between(filter.from(), filter.to()).compareTo(MAX_RANGE) > 0) {
            throw AdminException.invalid(AdminCodes.QUERY, "from and to must be at most 31 days apart");
        }
        return new Request(k.equals("rollups"), f.equals("csv"), filter);
    }

    /** The export as chunks of text: a CSV header line first, then one line per row, oldest first. */
    public Multi<String> stream(Request request) {
        List<Object> args = new ArrayList<>();
        String sql = request.rollups()
                ? "SELECT " + ROLLUP_COLUMNS + " FROM usage_rollups"
                        + request.filter()
                                .where(
                                        args,
                                        "minute_epoch_ms",
                                        request.filter().from().toEpochMilli(),
                                        request.filter().to().toEpochMilli())
                        + " ORDER BY minute_epoch_ms"
                : "SELECT " + RequestStatsService.COLUMNS + " FROM request_logs"
                        + request.filter().where(args) + " ORDER BY occurred_epoch_ms, request_id";
        String columns = request.rollups() ? ROLLUP_COLUMNS : RequestStatsService.COLUMNS;
        return RowExport.stream(pool, sql, args, List.of(columns.split(",\\s*")), request.csv());
    }
}
