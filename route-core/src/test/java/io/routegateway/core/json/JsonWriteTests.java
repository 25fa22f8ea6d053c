package io.routegateway.core.json;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.routegateway.core.event.CredentialEvent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one JSON write helper: the wire conventions, the declared type's name, and a bug thrown unchecked. */
class JsonWriteTests {

    record Sample(String credentialId, Instant at) {}

    @Test
    void writesWithTheWireConventions() {
        assertThat(Json.write(new Sample("c1", Instant.parse("2026-09-02T10:00:00Z"))))
                .isEqualTo("{\"credential_id\":\"c1\",\"at\":\"2026-09-02T10:00:00Z\"}");
        assertThat(Json.write(List.of("a", "b"))).isEqualTo("[\"a\",\"b\"]");
    }

    @Test
    void asTheDeclaredTypeASealedEventCarriesItsTypeName() {
        CredentialEvent event = new CredentialEvent.AttemptSucceeded(
                UUID.fromString("0b7f3c1e-5a2d-4c1b-9e8f-1a2b3c4d5e6f"),
                "c1",
                Instant.parse("2026-09-02T10:00:00Z"),
                "m");

        assertThat(Json.write(event, CredentialEvent.class)).contains("\"type\":\"attempt-succeeded.v1\"");
    }

    @Test
    void aValueThatDoesNotSerializeIsABugThrownUnchecked() {
        assertThatThrownBy(() -> Json.write(new Object()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Object did not serialize");
    }
}
