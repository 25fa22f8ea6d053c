package io.routegateway.state.publish;

import java.time.Instant;
import java.util.List;

import io.routegateway.state.repository.OutboxEntity;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** One message per key per round, the newest one; an ack covers the rows it superseded. */
class LatestPerKeyTests {

    @Test
    void onlyTheNewestRowOfEachKeyIsSentInIdOrder() {
        OutboxEntity a1 = row(1, "route.credential-state", "a");
        OutboxEntity b1 = row(2, "route.credential-state", "b");
        OutboxEntity a2 = row(3, "route.credential-state", "a");
        OutboxEntity groupA = row(4, "route.groups", "a");
        OutboxEntity b2 = row(5, "route.credential-state", "b");

        List<OutboxEntity> selected = LatestPerKey.select(List.of(a1, b1, a2, groupA, b2));

        assertThat(selected).containsExactly(a2, groupA, b2);
    }

    @Test
    void anAckCoversOnlyItsOwnKey() {
        OutboxEntity a1 = row(1, "route.credential-state", "a");
        OutboxEntity b1 = row(2, "route.credential-state", "b");
        OutboxEntity a2 = row(3, "route.credential-state", "a");

        assertThat(LatestPerKey.covered(List.of(a1, b1, a2), List.of(a2))).containsExactly(1L, 3L);
        assertThat(LatestPerKey.covered(List.of(a1, b1, a2), List.of())).isEmpty();
    }

    private static OutboxEntity row(long id, String topic, String key) {
        OutboxEntity row = new OutboxEntity(topic, key, "{}", Instant.EPOCH);
        row.id = id;
        return row;
    }
}
