package io.routegateway.state.outcome;

import java.time.Instant;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import org.junit.jupiter.api.Test;

import static io.routegateway.state.support.OutcomeFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading outcome messages: every known type parses, everything else is poison with a clear reason. */
class OutcomeParsingTests {

    @Test
    void aKnownEventParses() {
        CredentialEvent event =
                new CredentialEvent.ModelCleared(UUID.randomUUID(), "c1", Instant.parse("2026-01-01T00:00:00Z"), "m");
        assertThat(OutcomeConsumer.parse(json(event))).isEqualTo(event);
    }

    @Test
    void anUnknownTypeIsPoison() {
        assertThatThrownBy(() -> OutcomeConsumer.parse("{\"type\":\"nope.v1\",\"credential_id\":\"c1\"}"))
                .isInstanceOf(PoisonMessageException.class)
                .hasMessageContaining("unknown event type nope.v1");
    }

    @Test
    void garbageAndEmptyArePoison() {
        assertThatThrownBy(() -> OutcomeConsumer.parse("{oops"))
                .isInstanceOf(PoisonMessageException.class)
                .hasMessageStartingWith("unparsable outcome event");
        assertThatThrownBy(() -> OutcomeConsumer.parse(""))
                .isInstanceOf(PoisonMessageException.class)
                .hasMessage("empty outcome message");
        assertThatThrownBy(() -> OutcomeConsumer.parse(null)).isInstanceOf(PoisonMessageException.class);
    }
}
