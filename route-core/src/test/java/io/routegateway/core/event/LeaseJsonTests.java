package io.routegateway.core.event;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.routegateway.core.json.Json;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-written lease writer says exactly what the generic JSON writer says, for any lease. */
class LeaseJsonTests {

    @Property(tries = 500)
    void writesTheSameObjectAsJacksonAndReadsBackEqual(@ForAll("leases") LeaseEvent lease) throws Exception {
        String written = LeaseJson.write(lease);

        JsonNode tree = Json.MAPPER.readTree(written);
        assertThat(tree).isEqualTo(Json.MAPPER.readTree(Json.write(lease)));
        assertThat(Json.MAPPER.readValue(written, LeaseEvent.class)).isEqualTo(lease);
        assertThat(LeaseBatch.decode(JsonBatch.encode(java.util.List.of(written, written))))
                .extracting(JsonBatch.Entry::value)
                .containsExactly(lease, lease);
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() throws Exception {
        LeaseEvent lease = new LeaseEvent(
                UUID.fromString("00000000-0000-0000-0000-000000000001"),
                "a\"b\\c",
                LeaseEvent.Kind.REQUEST,
                LeaseEvent.Phase.CLOSED,
                "k\u0000\u001f\n\r\t\b\f",
                "t\u2028é😀",
                null,
                Instant.parse("2026-07-01T12:00:00.123456789Z"),
                null,
                0,
                null,
                -5L);

        String written = LeaseJson.write(lease);

        assertThat(written)
                .contains("\"origin\":\"a\\\"b\\\\c\"")
                .contains("\\u0000")
                .contains("\\u001f");
        assertThat(Json.MAPPER.readValue(written, LeaseEvent.class)).isEqualTo(lease);
    }

    @Provide
    Arbitrary<LeaseEvent> leases() {
        Arbitrary<String> text = Arbitraries.strings()
                .all()
                .ofMaxLength(12)
                .filter(s -> s.chars().noneMatch(c -> Character.isSurrogate((char) c)))
                .injectNull(0.2);
        Arbitrary<Instant> instant = Arbitraries.longs()
                .between(0, 4_102_444_800_000_000_000L)
                .map(nanos -> Instant.ofEpochSecond(nanos / 1_000_000_000L, nanos % 1_000_000_000L))
                .injectNull(0.2);
        Arbitrary<Long> optionalLong = Arbitraries.longs().injectNull(0.3);
        Arbitrary<UUID> id = Arbitraries.create(UUID::randomUUID).injectNull(0.05);
        Arbitrary<LeaseEvent.Kind> kind = Arbitraries.of(LeaseEvent.Kind.class).injectNull(0.05);
        Arbitrary<LeaseEvent.Phase> phase =
                Arbitraries.of(LeaseEvent.Phase.class).injectNull(0.05);
        return Combinators.combine(id, text, kind, phase, text, text, text, instant)
                .flatAs((leaseId, origin, k, p, key, team, credential, at) -> Combinators.combine(
                                instant, Arbitraries.longs(), optionalLong, optionalLong)
                        .as((expires, reserved, settled, cost) -> new LeaseEvent(
                                leaseId, origin, k, p, key, team, credential, at, expires, reserved, settled, cost)));
    }
}
