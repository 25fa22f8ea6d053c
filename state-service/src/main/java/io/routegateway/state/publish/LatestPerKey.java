package io.routegateway.state.publish;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.routegateway.state.repository.OutboxEntity;

/**
 * Which outbox rows one relay round sends: only the newest row of each (topic, key), in id order.
 * Older rows of a key are superseded (snapshots are whole states), and sending one message per key
 * per round means a failed send can never leave an older state behind a newer one on the topic.
 */
final class LatestPerKey {

    private LatestPerKey() {}

    /** @param rows in ascending id order */
    static List<OutboxEntity> select(Collection<OutboxEntity> rows) {
        Map<String, OutboxEntity> latest = new LinkedHashMap<>();
        for (OutboxEntity row : rows) {
            String key = row.topic + '\u0000' + row.messageKey;
            latest.remove(key);
            latest.put(key, row);
        }
        List<OutboxEntity> selected = new ArrayList<>(latest.values());
        selected.sort((left, right) -> Long.compare(left.id, right.id));
        return selected;
    }

    /** Ids of the rows whose (topic, key) was sent: the sent row and the older rows it superseded. */
    static List<Long> covered(Collection<OutboxEntity> rows, Collection<OutboxEntity> sent) {
        Set<String> keys = new HashSet<>();
        for (OutboxEntity row : sent) {
            keys.add(row.topic + '\u0000' + row.messageKey);
        }
        List<Long> ids = new ArrayList<>();
        for (OutboxEntity row : rows) {
            if (keys.contains(row.topic + '\u0000' + row.messageKey)) {
                ids.add(row.id);
            }
        }
        return ids;
    }
}
