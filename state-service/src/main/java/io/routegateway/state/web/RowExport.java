package io.routegateway.state.web;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import io.routegateway.core.text.CsvCell;
import io.smallrye.mutiny.Multi;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The admin API's exports (request logs, rollups, the audit log): a query's rows as CSV or NDJSON, streamed
 * from a database cursor ({@value #FETCH} rows a fetch) in chunks, never held in memory whole. Text cells of
 * the CSV are {@link CsvCell#text} (no formula a spreadsheet would run).
 */
public final class RowExport {

    /** Rows per cursor fetch, and per chunk written. */
    public static final int FETCH = 500;

    private RowExport() {}

    /** Content type of the format. */
    public static String contentType(boolean csv) {
        return csv ? "text/csv; charset=utf-8" : "application/x-ndjson";
    }

    /**
     * A refusal naming the parameters when a query parameter is not one of them; a name that is not a plain
     * parameter name is not echoed.
     */
    public static void refuseUnknown(Set<String> sent, Set<String> parameters) {
        for (String name : sent) {
            if (!parameters.contains(name)) {
                throw AdminException.invalid(
                        AdminCodes.UNKNOWN_FIELD,
                        (name.matches("[a-z][a-z0-9_]{0,63}")
                                        ? "unknown query parameter " + name
                                        : "an unknown query parameter")
                                + "; the parameters are "
                                + parameters.stream().sorted().toList());
            }
        }
    }

    /**
     * The rows of {@code sql} as chunks of text, in the query's order: for CSV a header line of {@code columns}
     * first. The query runs in a read transaction on a connection of its own, closed when the stream ends,
     * fails or is cancelled (the client went away).
     */
    public static Multi<String> stream(Pool pool, String sql, List<Object> args, List<String> columns, boolean csv) {
        Multi<String> lines = pool.getConnection()
                .toMulti()
                .flatMap(connection -> connection
                        .begin()
                        .toMulti()
                        .flatMap(tx -> connection.prepare(sql).toMulti())
                        .flatMap(statement ->
                                statement.createStream(FETCH, Tuple.from(args)).toMulti())
                        .map(row -> csv ? csv(row) : ndjson(row))
                        .onTermination()
                        .call((failure, cancelled) -> connection.close()));
        Multi<String> chunks = lines.group().intoLists().of(FETCH).map(list -> String.join("", list));
        if (!csv) {
            return chunks;
        }
        return Multi.createBy()
                .concatenating()
                .streams(Multi.createFrom().item(String.join(",", columns) + "\n"), chunks);
    }

    static String csv(Row row) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            Object value = row.getValue(i);
            if (value instanceof String text) {
                line.append(CsvCell.text(text));
            } else if (value != null) {
                line.append(value);
            }
        }
        return line.append('\n').toString();
    }

    static String ndjson(Row row) {
        JsonObject object = new JsonObject();
        for (int i = 0; i < row.size(); i++) {
            Object value = row.getValue(i);
            object.put(row.getColumnName(i), value instanceof UUID id ? id.toString() : value);
        }
        return object.encode() + "\n";
    }
}
