package io.routegateway.core.select;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Mutable collector behind {@link RouteTrace}; one per traced request, never shared. */
final class TraceBuilder {

    ReasonCode accessRefusal;
    ReasonCode outcome;
    private final Map<String, GroupRow> groups = new LinkedHashMap<>();

    static final class GroupRow {
        final String groupId;
        final String groupName;
        RouteTrace.Verdict verdict = RouteTrace.Verdict.NOT_EVALUATED;
        ReasonCode reason;
        String detail;
        int position = -1;
        final List<RouteTrace.CredentialTrace> credentials = new ArrayList<>();

        GroupRow(String groupId, String groupName) {
            this.groupId = groupId;
            this.groupName = groupName;
        }
    }

    boolean has(String groupId) {
        return groups.containsKey(groupId);
    }

    GroupRow group(String groupId, String groupName) {
        return groups.computeIfAbsent(groupId, id -> new GroupRow(id, groupName));
    }

    void drop(String groupId, String groupName, ReasonCode reason, String detail) {
        GroupRow row = group(groupId, groupName);
        row.verdict = RouteTrace.Verdict.DROPPED;
        row.reason = reason;
        row.detail = detail;
    }

    RouteTrace build() {
        List<RouteTrace.GroupTrace> rows = new ArrayList<>(groups.size());
        for (GroupRow row : groups.values()) {
            rows.add(new RouteTrace.GroupTrace(
                    row.groupId, row.groupName, row.verdict, row.reason, row.detail, row.position, row.credentials));
        }
        return new RouteTrace(accessRefusal, rows, outcome);
    }
}
