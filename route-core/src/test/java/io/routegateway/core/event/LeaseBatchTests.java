package io.routegateway.core.event;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.json.Json;
import io.routegateway.core.limits.Leases;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A lease message is one lease or a replica's batch; every entry is read, or refused, on its own. */
class LeaseBatchTests {

    private static final Instant AT = Instant.parse("2026-07-01T12:00:00Z");

    private static LeaseEvent lease(String keyId) {
        return Leases.openRequest(UUID.randomUUID(), "replica-a", keyId, null, AT, Duration.ofSeconds(60), 5);
    }

    @Test
    void aBatchYieldsItsLeasesInOrder() {
        LeaseEvent a = lease("k1");
        LeaseEvent b = Leases.close(a, AT.plusSeconds(2), 7L, null);
        LeaseEvent c = lease("k2");

        List<JsonBatch.Entry<LeaseEvent>> entries =
                LeaseBatch.decode(JsonBatch.encode(List.of(Json.write(a), Json.write(b), Json.write(c))));

        assertThat(entries).extracting(JsonBatch.Entry::value).containsExactly(a, b, c);
        assertThat(entries).extracting(JsonBatch.Entry::index).containsExactly(0, 1, 2);
        assertThat(entries).noneMatch(JsonBatch.Entry::refused);
    }

    @Test
    void aSingleLeaseAsAnObjectIsStillRead() {
        LeaseEvent a = lease("k1");

        List<JsonBatch.Entry<LeaseEvent>> entries = LeaseBatch.decode(Json.write(a));

        assertThat(entries).singleElement().satisfies(entry -> {
            assertThat(entry.value()).isEqualTo(a);
            assertThat(entry.index()).isEqualTo(-1);
        });
    }

    @Test
    void aBadEntryIsRefusedAloneAndItsNeighboursCount() {
        LeaseEvent a = lease("k1");
        LeaseEvent c = lease("k2");

        List<JsonBatch.Entry<LeaseEvent>> entries = LeaseBatch.decode(
                "[" + Json.write(a) + ",\"text\\u0000\",{\"kind\":\"NOT_A_KIND\"}," + Json.write(c) + "]");

        assertThat(entries).hasSize(4);
        assertThat(entries.get(0).value()).isEqualTo(a);
        assertThat(entries.get(1).refusal()).isEqualTo("lease 1 of the batch is not a JSON object");
        assertThat(entries.get(2).refusal()).isEqualTo("lease 2 of the batch does not match lease.v1");
        assertThat(entries.get(3).value()).isEqualTo(c);
    }

    @Test
    void aBatchCutShortKeepsTheLeasesBeforeTheCut() {
        LeaseEvent a = lease("k1");
        String whole = JsonBatch.encode(List.of(Json.write(a), Json.write(lease("k2"))));

        List<JsonBatch.Entry<LeaseEvent>> entries = LeaseBatch.decode(whole.substring(0, whole.length() - 20));

        assertThat(entries.get(0).value()).isEqualTo(a);
        assertThat(entries.get(entries.size() - 1).refusal()).startsWith("unparsable lease");
    }

    @Test
    void neitherObjectNorArrayIsOneRefusal() {
        assertThat(LeaseBatch.decode("42"))
                .singleElement()
                .satisfies(entry ->
                        assertThat(entry.refusal()).isEqualTo("a lease message is a JSON object or an array of them"));
        assertThat(LeaseBatch.decode(""))
                .singleElement()
                .satisfies(entry -> assertThat(entry.refusal()).isEqualTo("empty lease"));
    }
}
