package io.routegateway.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** values.schema.json is enforced by Helm at render time; these prove it rejects what it must. */
class ValuesSchemaTests {

    private static void assertRejected(Map<String, Object> sets, String... expectedFragments) {
        assertThatThrownBy(() -> ChartRenderer.template(RepoPaths.chart(), List.of(), sets))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContainingAll(expectedFragments);
    }

    @Test
    void rejectsAStringWhereAnIntegerBelongs() {
        assertRejected(Map.of("gateway.replicaCount", "three"), "replicaCount");
    }

    @Test
    void rejectsAStringWhereABooleanBelongs(@TempDir Path tmp) throws Exception {
        Path values = tmp.resolve("wrong-type.yaml");
        Files.writeString(values, "gateway:\n  autoscaling:\n    enabled: \"yes\"\n");

        assertThatThrownBy(() -> ChartRenderer.template(RepoPaths.chart(), values))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContaining("enabled");
    }

    @Test
    void requiresTheGatewaysMemoryLimitItsHeapIsSizedFrom(@TempDir Path tmp) throws Exception {
        Path values = tmp.resolve("no-memory-limit.yaml");
        Files.writeString(values, "gateway:\n  resources:\n    limits:\n      memory: null\n");

        assertThatThrownBy(() -> ChartRenderer.template(RepoPaths.chart(), values))
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContaining("memory");
    }

    @Test
    void rejectsAnUnknownKey() {
        assertRejected(Map.of("gateway.replicaCont", 3), "replicaCont");
    }

    @Test
    void rejectsAnOutOfRangeValue() {
        assertRejected(Map.of("recovery.tickSeconds", 0), "tickSeconds");
    }

    @Test
    void rejectsAValueOutsideItsEnum() {
        assertRejected(Map.of("logLevel", "VERBOSE"), "logLevel");
    }

    @Test
    void rejectsALiteralSecretInPlaceOfASecretReference() {
        assertRejected(Map.of("secrets.adminToken.value", "s3cr3t-admin-token"), "value");
    }

    @Test
    void refusesToOpenTheAdminApiWithoutASelector() {
        assertThatThrownBy(() -> ChartRenderer.template(RepoPaths.chart(), List.of(), Map.of("admin.exposed", true)))
                .hasMessageContaining("admin.exposed=true needs admin.namespaceSelector and/or admin.podSelector");
    }
}
