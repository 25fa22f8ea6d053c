package io.routegateway.core.event;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import io.routegateway.core.json.Json;
import io.routegateway.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every wire type has a checked-in sample that round-trips unchanged: the v1 contract. */
class EventSchemaTests {

    static Stream<String> credentialEventTypes() {
        return Arrays.stream(
                        CredentialEvent.class.getAnnotation(JsonSubTypes.class).value())
                .map(JsonSubTypes.Type::name);
    }

    @ParameterizedTest
    @MethodSource("credentialEventTypes")
    void everyCredentialEventTypeRoundTripsItsSample(String type) throws IOException {
        JsonNode sample = sample(type);
        CredentialEvent event = Json.MAPPER.treeToValue(sample, CredentialEvent.class);

        assertThat(event.type()).isEqualTo(type);
        assertThat(event.eventId()).isNotNull();
        assertThat(event.credentialId()).isEqualTo("cred-primary");
        assertThat(reparsed(event)).isEqualTo(sample);
    }

    @Test
    void snapshotsAndUsageRoundTripTheirSamples() throws Exception {
        for (Class<?> type : List.of(
                CredentialSnapshot.class,
                AccessKeySnapshot.class,
                GroupSnapshot.class,
                RuntimeSettingsSnapshot.class,
                RequestCompleted.class,
                TeamSnapshot.class,
                LeaseEvent.class,
                SpendSnapshot.class)) {
            String name = type.getField("TYPE").get(null).toString();
            JsonNode sample = sample(name);
            Object value = Json.MAPPER.treeToValue(sample, type);
            assertThat(reparsed(value)).as(name).isEqualTo(sample);
        }
    }

    @Test
    void runtimeSettingsCarryTheModelPricesOptionallyAndReadThemForgivingly() throws Exception {
        RuntimeSettingsSnapshot priced =
                Json.MAPPER.treeToValue(sample("runtime-settings.v1"), RuntimeSettingsSnapshot.class);
        assertThat(priced.prices().costMicros("gpt-5.1", null, 1000L, 100L)).isEqualTo(2250L);
        // priced per token kind: 100 × 3 + 600 × 0.3 + 200 × 3.75 + 100 × 6 + 100 × 15
        assertThat(priced.prices()
                        .costMicros(
                                "claude-sonnet-4-5", null, TokenUsage.ofDetails(1000L, 100L, 600L, 200L, 100L, null)))
                .isEqualTo(3330L);
        // 488 × 1.25 + 512 × 0.125 + 100 × 10
        assertThat(priced.prices().costMicros("gpt-5.1", null, 1000L, 100L, 512L, null, null, null))
                .isEqualTo(1674L);
        RuntimeSettingsSnapshot older = Json.MAPPER.readValue(
                "{\"type\":\"runtime-settings.v1\",\"version\":1,\"blacklist_threshold\":0,"
                        + "\"affinity_ttl_seconds\":60,\"affinity_capacity\":10}",
                RuntimeSettingsSnapshot.class);
        assertThat(older.modelPrices()).isNull();
        assertThat(older.prices().prices()).isEmpty();
        RuntimeSettingsSnapshot broken = Json.MAPPER.readValue(
                "{\"version\":1,\"model_prices\":{\"m\":{\"input_per_million\":-1,\"output_per_million\":1}}}",
                RuntimeSettingsSnapshot.class);
        assertThat(broken.prices().prices())
                .as("an unreadable price list prices nothing")
                .isEmpty();
    }

    @Test
    void anUnknownTypeIsAnErrorNeverSilentlyDropped() {
        String json = "{\"type\":\"credential-exploded.v1\",\"event_id\":\"0b7f3c1e-5a2d-4c1b-9e8f-1a2b3c4d5e6f\","
                + "\"credential_id\":\"c\",\"occurred_at\":\"2026-09-02T10:00:00Z\"}";
        assertThatThrownBy(() -> Json.MAPPER.readValue(json, CredentialEvent.class))
                .isInstanceOf(InvalidTypeIdException.class)
                .hasMessageContaining("credential-exploded.v1");
    }

    @Test
    void aMissingTypeIsAnError() {
        String json = "{\"event_id\":\"0b7f3c1e-5a2d-4c1b-9e8f-1a2b3c4d5e6f\",\"credential_id\":\"c\"}";
        assertThatThrownBy(() -> Json.MAPPER.readValue(json, CredentialEvent.class))
                .isInstanceOf(IOException.class);
    }

    @Test
    void optionalFieldsAddedLaterWithinV1AreTolerated() throws IOException {
        String json = "{\"type\":\"attempt-succeeded.v1\",\"event_id\":\"0b7f3c1e-5a2d-4c1b-9e8f-1a2b3c4d5e6f\","
                + "\"credential_id\":\"c\",\"occurred_at\":\"2026-09-02T10:00:00Z\",\"model_key\":\"m\",\"added_later\":1}";
        assertThat(Json.MAPPER.readValue(json, CredentialEvent.class))
                .isInstanceOf(CredentialEvent.AttemptSucceeded.class);
    }

    @Test
    void aModelTestWrittenBeforeAutomaticExistedReadsAsAPersonsTest() throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode older =
                (com.fasterxml.jackson.databind.node.ObjectNode) sample("model-test-succeeded.v1");
        older.remove("automatic");

        CredentialEvent.ModelTestSucceeded event =
                (CredentialEvent.ModelTestSucceeded) Json.MAPPER.treeToValue(older, CredentialEvent.class);

        assertThat(event.explicitTest()).isTrue();
        assertThat(event.automatic()).isFalse();
    }

    @Test
    void aSnapshotWrittenBeforeOutcomeSentAtExistedReadsWithoutOne() throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode older =
                (com.fasterxml.jackson.databind.node.ObjectNode) sample(CredentialSnapshot.TYPE);
        older.remove("outcome_sent_at");

        CredentialSnapshot snapshot = Json.MAPPER.treeToValue(older, CredentialSnapshot.class);

        assertThat(snapshot.outcomeSentAt()).isNull();
        assertThat(snapshot.version()).isEqualTo(7);
        assertThat(Json.MAPPER
                        .treeToValue(sample(CredentialSnapshot.TYPE), CredentialSnapshot.class)
                        .outcomeSentAt())
                .isEqualTo(java.time.Instant.parse("2026-09-02T10:00:00.080Z"));
    }

    @Test
    void aSnapshotWrittenBeforeOutcomePositionExistedReadsWithoutOne() throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode older =
                (com.fasterxml.jackson.databind.node.ObjectNode) sample(CredentialSnapshot.TYPE);
        older.remove("outcome_position");

        CredentialSnapshot snapshot = Json.MAPPER.treeToValue(older, CredentialSnapshot.class);

        assertThat(snapshot.outcomePosition()).isNull();
        assertThat(Json.MAPPER
                        .treeToValue(sample(CredentialSnapshot.TYPE), CredentialSnapshot.class)
                        .outcomePosition())
                .isEqualTo(new OutcomePosition(3, 1042));
    }

    @Test
    void aQuotaEventWrittenBeforeResetsAtExistedReadsWithoutAReset() throws IOException {
        String json =
                "{\"type\":\"quota-exhaustion-recorded.v1\",\"event_id\":\"0b7f3c1e-5a2d-4c1b-9e8f-1a2b3c4d5e6f\","
                        + "\"credential_id\":\"c\",\"occurred_at\":\"2026-09-02T10:00:00Z\",\"model_key\":null,"
                        + "\"status\":401,\"message\":\"用户额度不足\",\"response_body\":\"{}\"}";
        CredentialEvent.QuotaExhaustionRecorded event =
                (CredentialEvent.QuotaExhaustionRecorded) Json.MAPPER.readValue(json, CredentialEvent.class);
        assertThat(event.resetsAt()).isNull();
        assertThat(event.limitWindow()).isNull();
        assertThat(event.message()).isEqualTo("用户额度不足");
    }

    @Test
    void theQuotaEventCarriesItsResetAsAnInstantAndItsWindowAsText() throws IOException {
        CredentialEvent.QuotaExhaustionRecorded event = (CredentialEvent.QuotaExhaustionRecorded)
                Json.MAPPER.treeToValue(sample("quota-exhaustion-recorded.v1"), CredentialEvent.class);
        assertThat(event.resetsAt()).isEqualTo(java.time.Instant.parse("2026-09-02T13:00:00Z"));
        assertThat(event.limitWindow()).isEqualTo("5h");
    }

    @Test
    void typeNamesAreUniqueAndVersioned() {
        List<String> names = credentialEventTypes().toList();
        assertThat(names).doesNotHaveDuplicates().allMatch(name -> name.matches("[a-z]+(-[a-z]+)*\\.v[0-9]+"));
    }

    /** Written and read back as text, so number node types compare as they would on the wire. */
    private static JsonNode reparsed(Object value) throws IOException {
        return Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(value));
    }

    private static JsonNode sample(String type) throws IOException {
        try (InputStream in = EventSchemaTests.class.getResourceAsStream("/events/v1/" + type + ".json")) {
            assertThat(in).as("sample for " + type).isNotNull();
            return Json.MAPPER.readTree(in);
        }
    }
}
