package io.routegateway.core.event;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventIdsTests {

    @Test
    void idsAreRandomVersion4UuidsOfTheIetfVariant() {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            UUID id = EventIds.next();
            assertThat(id.version()).isEqualTo(4);
            assertThat(id.variant()).isEqualTo(2);
            seen.add(id);
        }
        assertThat(seen).hasSize(10_000);
    }
}
