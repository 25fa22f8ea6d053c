package io.routegateway.state.usage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The filters shared by the request log and the usage stats, turned into one SQL condition over
 * {@code request_logs} (built by {@link UsageRules#filter}). Time ranges compare {@code occurred_epoch_ms} (never the text timestamps).
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

    /** {@code WHERE ...} (or empty) with {@code $n} placeholders; appends the values to {@code args}. */
    String where(List<Object> args) {
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
        if (from != null) {
            args.add(from.toEpochMilli());
            conditions.add("occurred_epoch_ms >= $" + args.size());
        }
        if (to != null) {
            args.add(to.toEpochMilli());
            conditions.add("occurred_epoch_ms < $" + args.size());
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
