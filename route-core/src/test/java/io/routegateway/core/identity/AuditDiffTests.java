package io.routegateway.core.identity;

import io.routegateway.core.json.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AuditDiffTests {

    private static com.fasterxml.jackson.databind.JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    @Test
    void anUpdateRecordsOnlyTheChangedFields() throws Exception {
        AuditDiff.Change change = AuditDiff.of(
                json("{\"id\":\"k\",\"enabled\":true,\"name\":\"a\"}"),
                json("{\"id\":\"k\",\"enabled\":false,\"name\":\"a\",\"new\":1}"));
        assertThat(change.before().toString()).isEqualTo("{\"enabled\":true,\"new\":null}");
        assertThat(change.after().toString()).isEqualTo("{\"enabled\":false,\"new\":1}");
    }

    @Test
    void aCreateAndADeleteRecordTheWholeView() throws Exception {
        assertThat(AuditDiff.of(null, json("{\"id\":\"k\"}")).after().toString())
                .isEqualTo("{\"id\":\"k\"}");
        assertThat(AuditDiff.of(json("{\"id\":\"k\"}"), null).after()).isNull();
    }

    @Test
    void secretsAreRedactedAtAnyDepth() throws Exception {
        AuditDiff.Change change = AuditDiff.of(
                null,
                json(
                        "{\"id\":\"c\",\"oauth\":{\"refresh_token\":\"rt-123\"},\"items\":[{\"secret\":\"sk-9\"}],\"key\":null}"));
        String text = change.after().toString();
        assertThat(text).doesNotContain("rt-123").doesNotContain("sk-9").contains(AuditDiff.REDACTED);
        assertThat(change.after().get("key").isNull()).isTrue();
    }

    @Test
    void aChangedSecretShowsAsRedactedOnBothSidesAndIsNotAChange() throws Exception {
        AuditDiff.Change change = AuditDiff.of(json("{\"secret\":\"a\",\"n\":1}"), json("{\"secret\":\"b\",\"n\":1}"));
        assertThat(change.after().toString()).isEqualTo("{}");
    }
}
