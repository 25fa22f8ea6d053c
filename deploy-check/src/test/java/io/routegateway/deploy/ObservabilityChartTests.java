package io.routegateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the chart renders for Prometheus and Grafana: nothing by default; with {@code prometheusRule} and
 * {@code grafanaDashboards} on, one PrometheusRule and one ConfigMap per dashboard, labelled for the sidecar and
 * holding the dashboard file unchanged. The dashboards themselves are well-formed (unique uids and panel ids, a
 * data source variable every query uses).
 */
class ObservabilityChartTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DASHBOARDS = PromtoolTests.DASHBOARDS;

    @TempDir
    Path tmp;

    @Test
    void neitherRulesNorDashboardsAreRenderedByDefault() {
        ManifestRules rules = Renders.rules(Renders.DEFAULTS);

        assertThat(rules.all(PrometheusRule.class)).isEmpty();
        assertThat(dashboardConfigMaps(rules)).isEmpty();
    }

    @Test
    void theProductionExampleRendersEveryDashboardForTheSidecarUnchanged() throws IOException {
        List<ConfigMap> configMaps = dashboardConfigMaps(Renders.rules("production.yaml"));
        Map<String, JsonNode> files =
                DashboardQueries.dashboards(RepoPaths.root().resolve(DASHBOARDS));

        assertThat(configMaps).hasSize(files.size()).hasSizeGreaterThanOrEqualTo(5);
        for (ConfigMap configMap : configMaps) {
            assertThat(configMap.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
            assertThat(configMap.getMetadata().getAnnotations()).containsEntry("grafana_folder", "Route gateway");
            assertThat(configMap.getMetadata().getName()).endsWith("-dashboard").hasSizeLessThanOrEqualTo(63);
            assertThat(configMap.getData()).hasSize(1);
            Map.Entry<String, String> data =
                    configMap.getData().entrySet().iterator().next();
            assertThat(files).containsKey(data.getKey());
            assertThat(JSON.readTree(data.getValue())).isEqualTo(files.get(data.getKey()));
            assertThat(data.getValue().strip())
                    .isEqualTo(Files.readString(
                                    RepoPaths.root().resolve(DASHBOARDS).resolve(data.getKey()))
                            .strip());
        }
    }

    @Test
    void theSidecarLabelAndNamespaceFollowTheValues() {
        ManifestRules rules = new ManifestRules(StrictManifestReader.read(ChartRenderer.template(
                RepoPaths.chart(),
                List.of(),
                Map.of(
                        "grafanaDashboards.enabled", true,
                        "grafanaDashboards.label", "dashboards.example.com/load",
                        "grafanaDashboards.labelValue", "yes",
                        "grafanaDashboards.namespace", "monitoring"))));

        assertThat(rules.all(ConfigMap.class).stream()
                        .filter(configMap -> configMap.getMetadata().getName().endsWith("-dashboard")))
                .isNotEmpty()
                .allSatisfy(configMap -> {
                    assertThat(configMap.getMetadata().getLabels())
                            .containsEntry("dashboards.example.com/load", "yes")
                            .doesNotContainKey("grafana_dashboard");
                    assertThat(configMap.getMetadata().getNamespace()).isEqualTo("monitoring");
                });
    }

    @Test
    void aMisspeltValueUnderTheNewKeysIsRefusedByTheSchema() {
        assertThatThrownBy(() ->
                        ChartRenderer.template(RepoPaths.chart(), List.of(), Map.of("prometheusRule.enable", true)))
                .hasMessageContaining("enable");
        assertThatThrownBy(() -> ChartRenderer.template(
                        RepoPaths.chart(), List.of(), Map.of("grafanaDashboards.namespace", "Not A Namespace")))
                .hasMessageContaining("namespace");
    }

    @Test
    void aDashboardFileThatIsNotJsonFailsTheChecks() throws Exception {
        Path chart = ChartCopies.copy(tmp);
        Files.writeString(chart.resolve("files/dashboards/route-gateway-broken.json"), "{ not json");

        assertThatThrownBy(() -> DashboardQueries.dashboards(chart.resolve("files/dashboards")))
                .hasMessageContaining("route-gateway-broken.json is not valid JSON");
    }

    @Test
    void everyDashboardIsWellFormed() {
        Set<String> uids = new HashSet<>();
        DashboardQueries.dashboards(RepoPaths.root().resolve(DASHBOARDS)).forEach((file, dashboard) -> {
            assertThat(uids.add(dashboard.path("uid").asText()))
                    .as(file + " uid is unique")
                    .isTrue();
            assertThat(dashboard.path("uid").asText()).as(file + " uid").matches("[a-z0-9-]{1,40}");
            assertThat(dashboard.path("title").asText()).as(file + " title").startsWith("Route gateway / ");
            assertThat(dashboard.path("tags").toString()).contains("route-gateway");
            JsonNode datasource = dashboard.path("templating").path("list").path(0);
            assertThat(datasource.path("type").asText()).isEqualTo("datasource");
            assertThat(datasource.path("query").asText()).isEqualTo("prometheus");
            Set<Integer> ids = new HashSet<>();
            for (JsonNode panel : DashboardQueries.panels(dashboard)) {
                assertThat(ids.add(panel.path("id").asInt()))
                        .as(file + " panel ids are unique")
                        .isTrue();
                for (JsonNode target : panel.path("targets")) {
                    assertThat(target.path("datasource").path("uid").asText())
                            .as(file + " / " + panel.path("title").asText())
                            .isEqualTo("${datasource}");
                    assertThat(target.path("expr").asText()).isNotBlank();
                }
            }
        });
    }

    @Test
    void tracingIsOffByDefaultAndTheProductionExampleTurnsItOnForGatewayAndStateService() {
        assertThat(serviceConfigMaps(Renders.rules(Renders.DEFAULTS)))
                .isNotEmpty()
                .allSatisfy(configMap ->
                        assertThat(configMap.getData().keySet()).noneMatch(key -> key.startsWith("QUARKUS_OTEL_")));

        List<ConfigMap> production = serviceConfigMaps(Renders.rules("production.yaml"));
        assertThat(production).hasSize(3);
        for (ConfigMap configMap : production) {
            Map<String, String> data = configMap.getData();
            if (configMap.getMetadata().getName().contains("recovery")) {
                assertThat(data.keySet()).noneMatch(key -> key.startsWith("QUARKUS_OTEL_"));
            } else {
                assertThat(data)
                        .containsEntry("QUARKUS_OTEL_SDK_DISABLED", "false")
                        .containsEntry(
                                "QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                                "http://otel-collector.observability:4317")
                        .containsEntry("QUARKUS_OTEL_TRACES_SAMPLER_ARG", "0.01");
            }
        }
    }

    @Test
    void tracingWithoutAnEndpointIsRefused() {
        assertThatThrownBy(() -> ChartRenderer.template(RepoPaths.chart(), List.of(), Map.of("tracing.enabled", true)))
                .hasMessageContaining("endpoint");
    }

    /** The three services' ConfigMaps (their environment). */
    private static List<ConfigMap> serviceConfigMaps(ManifestRules rules) {
        return rules.all(ConfigMap.class).stream()
                .filter(configMap ->
                        configMap.getData() != null && configMap.getData().containsKey("QUARKUS_HTTP_PORT"))
                .toList();
    }

    private static List<ConfigMap> dashboardConfigMaps(ManifestRules rules) {
        return rules.all(ConfigMap.class).stream()
                .filter(configMap -> configMap.getMetadata().getLabels() != null
                        && configMap.getMetadata().getLabels().containsKey("grafana_dashboard"))
                .toList();
    }
}
