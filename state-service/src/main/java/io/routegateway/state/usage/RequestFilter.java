package io.routegateway.state.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The filters shared by the request log and the usage stats, turned into one SQL condition over
 * {@code request_logs} or {@code usage_rollups} (built by {@link UsageRules#filter}). Time ranges compare {@code occurred_epoch_ms} (never the text timestamps).
 *
 * @param model matches the requested name or the model key
 * @param success null = both
 * @param probe null = both; {@code false} leaves recovery probes and model tests out
 * @param from inclusive, null = unbounded
 * @param to exclusive, null = unbounded
 * @param teamId the team the requests were charged to
 */
public record RequestFilter(
        String accessKeyId,
        String credentialId,
        String groupId,
        String model,
        Boolean success,
        String reasonCode,
        Boolean probe,
        Instant from,
        Instant to,
        String teamId) {

    /** The same filter with {@code teamId} as its team. */
    public RequestFilter withTeam(String team) {
        return new RequestFilter(accessKeyId, credentialId, groupId, model, success, reasonCode, probe, from, to, team);
    }

    /** {@code WHERE ...} (or empty) with {@code $n} placeholders; appends the values to {@code args}. */
    String where(List<Object> args) {
        return where(
                args,
                "occurred_epoch_ms",
                from == null ? null : from.toEpochMilli(),
                to == null ? null : to.toEpochMilli());
    }

    /**
     * The same condition over a table with the same filter columns ({@code request_logs} or {@code
     * usage_rollups}), its time in {@code timeColumn} bounded by {@code [fromMs, toMs)} (null =
     * unbounded) instead of this filter's range.
     */
    String where(List<Object> args, String timeColumn, Long fromMs, Long toMs) {
        List<String> conditions = new ArrayList<>();
        equal(conditions, args, "access_key_id", accessKeyId);
        equal(conditions, args, "team_id", teamId);
        equal(conditions, args, "credential_id", credentialId);
        equal(conditions, args, "group_id", groupId);
        equal(conditions, args, "reason_code", reasonCode);
        equal(conditions, args, "success", success);
        equal(conditions, args, "probe", probe);
        if (model != null) {
            args.add(model);
            conditions.add("(requested_model = $" + args.size() + " OR model_key = $" + args.size() + ")");
        }
        if (fromMs != null) {
            args.add(fromMs);
            conditions.add(timeColumn + " >= $" + args.size());
        }
        if (toMs != null) {
            args.add(toMs);
            conditions.add(timeColumn + " < $" + args.size());
        }
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    private static void equal(List<String> conditions, List<Object> args, String column, Object value) {
        if (value != null) {
            args.add(value);
            conditions.add(column + " = $" + args.size());
        }
    }
}
