package io.routegateway.state.usage;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.UUID;

import io.routegateway.core.usage.RollupLevels;
import io.routegateway.state.web.AdminCodes;
import io.routegateway.state.web.AdminException;
import io.routegateway.state.web.Paging;

/**
 * The query parameters of the request log and the usage stats, checked and mapped without I/O: the
 * filters into a {@link RequestFilter}, {@code group_by} into its grouping, {@code limit} and
 * {@code cursor} into a page position. Every refusal is {@code validation.query}. Control
 * characters, U+0000 and over-long values in any query parameter are refused before, by {@code
 * web/AdminInputFilter}. {@link RequestStatsService} runs the SQL.
 */
public final class UsageRules {

    /**
     * {@code group_by} value → the SQL expression it groups on, over {@code request_logs} and {@code
     * usage_rollups} alike ({@code %1$s}: the table's time column in epoch milliseconds).
     */
    static final Map<String, String> GROUPINGS = Map.of(
            "access_key", "access_key_id",
            "credential", "credential_id",
            "group", "group_id",
            "team", "team_id",
            "reason_code", "reason_code",
            "model", "coalesce(model_key, requested_model)",
            "day", "to_char(to_timestamp(%1$s / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
            "hour", "to_char(to_timestamp(%1$s / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:00\"Z\"')");

    private UsageRules() {}

    /**
     * The usage grouping.
     *
     * @param by the {@code group_by} value (default {@code day})
     * @param expression the SQL expression it groups on, {@code %1$s} standing for the time column
     */
    public record Grouping(String by, String expression) {

        /** The expression over a table whose time column (epoch milliseconds) is {@code timeColumn}. */
        public String over(String timeColumn) {
            return String.format(expression, timeColumn);
        }

        /** The coarsest rollup level its keys can be read from: hours need hourly rows at least. */
        public RollupLevels.Level coarsest() {
            return "hour".equals(by) ? RollupLevels.Level.HOUR : RollupLevels.Level.DAY;
        }
    }

    /** Position after the last row of a page: {@code <occurred_epoch_ms>_<request_id>}. */
    public record Cursor(long epochMs, UUID requestId) {

        @Override
        public String toString() {
            return epochMs + "_" + requestId;
        }
    }

    /** The filters; blank values are absent, {@code from} must be before {@code to}. */
    public static RequestFilter filter(
            String accessKeyId,
            String credentialId,
            String groupId,
            String model,
            String success,
            String reasonCode,
            String probe,
            String from,
            String to,
            String teamId) {
        RequestFilter filter = new RequestFilter(
                blankToNull(accessKeyId),
                blankToNull(credentialId),
                blankToNull(groupId),
                blankToNull(model),
                bool("success", success),
                blankToNull(reasonCode),
                bool("probe", probe),
                instant("from", from),
                instant("to", to),
                blankToNull(teamId));
        if (filter.from() != null && filter.to() != null && !filter.from().isBefore(filter.to())) {
            throw AdminException.invalid(AdminCodes.QUERY, "from must be before to");
        }
        return filter;
    }

    /** {@code group_by}: one of {@link #GROUPINGS}' keys, {@code day} when absent. */
    public static Grouping groupBy(String sent) {
        String by = sent == null || sent.isBlank() ? "day" : sent.strip();
        String expression = GROUPINGS.get(by);
        if (expression == null) {
            throw AdminException.invalid(AdminCodes.QUERY, "group_by must be one of " + GROUPINGS.keySet());
        }
        return new Grouping(by, expression);
    }

    /** The page size sent (null = default), see {@link Paging#limit}. */
    public static int limit(String sent) {
        return Paging.limit(sent);
    }

    /** The {@code next_cursor} of a previous page, or null when none is sent. */
    public static Cursor cursor(String sent) {
        if (sent == null || sent.isBlank()) {
            return null;
        }
        int split = sent.indexOf('_');
        try {
            return new Cursor(Long.parseLong(sent.substring(0, split)), UUID.fromString(sent.substring(split + 1)));
        } catch (RuntimeException e) {
            throw AdminException.invalid(AdminCodes.QUERY, "cursor must be the next_cursor of a previous page");
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    private static Boolean bool(String name, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        switch (text.strip()) {
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            default:
                throw AdminException.invalid(AdminCodes.QUERY, name + " must be true or false");
        }
    }

    private static Instant instant(String name, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw AdminException.invalid(
                    AdminCodes.QUERY, name + " must be an ISO-8601 instant such as 2026-01-31T00:00:00Z");
        }
    }
}
