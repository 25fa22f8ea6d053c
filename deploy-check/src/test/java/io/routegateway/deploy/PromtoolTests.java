package io.routegateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart's alerting rules and dashboards through the real promtool: the rule file checks, its unit tests
 * pass and fire every alert, every dashboard query parses, and the PrometheusRule the chart renders holds the
 * same rules and checks too.
 */
class PromtoolTests {

    static final Path RULES = Path.of("deploy/helm/route-gateway/files/prometheus/route-gateway-alerts.yaml");
    static final Path RULE_TESTS = Path.of("deploy/prometheus/alerts-test.yaml");
    static final Path DASHBOARDS = Path.of("deploy/helm/route-gateway/files/dashboards");

    static final ObjectMapper YAML = new YAMLMapper();
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theAlertingRulesPassPromtoolCheck() {
        Promtool.Result result = Promtool.run(RepoPaths.root(), "check", "rules", RULES.toString());
        System.out.println(result.output());

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void theUnitTestsPassAndFireEveryAlert() throws IOException {
        Promtool.Result result = Promtool.run(RepoPaths.root(), "test", "rules", RULE_TESTS.toString());
        System.out.println(result.output());
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");

        Map<String, List<String>> firedBy = firingTests();
        for (String alert : alerts()) {
            System.out.println("ALERT " + alert + " fired by: " + firedBy.getOrDefault(alert, List.of()));
        }
        assertThat(firedBy.keySet())
                .as("every alert needs a promtool test that expects it to fire")
                .containsAll(alerts());
        assertThat(alerts()).as("tests name only existing alerts").containsAll(firedBy.keySet());
    }

    @Test
    void everyAlertHasASeveritySummaryDescriptionAndRunbook() {
        for (JsonNode rule : rules(readYaml(RepoPaths.root().resolve(RULES)))) {
            String alert = rule.path("alert").asText();
            assertThat(rule.path("labels").path("severity").asText())
                    .as(alert + " severity")
                    .isIn("warning", "critical");
            for (String annotation : List.of("summary", "description", "runbook")) {
                assertThat(rule.path("annotations").path(annotation).asText())
                        .as(alert + " annotation " + annotation)
                        .isNotBlank();
            }
        }
    }

    @Test
    void everyDashboardQueryIsValidPromQl(@TempDir Path dir) throws IOException {
        // each query as a recording rule: promtool parses every expression of a rule file
        List<String> lines = new ArrayList<>(List.of("groups:", "  - name: dashboards", "    rules:"));
        int count = 0;
        for (Map.Entry<String, String> query :
                DashboardQueries.all(RepoPaths.root().resolve(DASHBOARDS)).entrySet()) {
            lines.add("      - record: dashboard:query_" + count++);
            lines.add("        expr: " + JSON.writeValueAsString(DashboardQueries.asPromQl(query.getValue())));
        }
        Path file = dir.resolve("dashboard-queries.yaml");
        Files.write(file, lines);

        Promtool.Result result = Promtool.run(dir, "check", "rules", file.toString());

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS: " + count + " rules found");
        assertThat(count).isGreaterThan(40);
    }

    @Test
    void theRenderedPrometheusRuleHoldsTheFilesGroupsAndChecks(@TempDir Path dir) throws IOException {
        List<PrometheusRule> rendered = Renders.rules("production.yaml").all(PrometheusRule.class);
        assertThat(rendered).hasSize(1);
        assertThat(rendered.get(0).getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");

        JsonNode spec = renderedSpec();
        JsonNode file = readYaml(RepoPaths.root().resolve(RULES));
        assertThat(spec.path("groups")).isEqualTo(file.path("groups"));

        Path extracted = dir.resolve("rendered-rules.yaml");
        ObjectNode groups = YAML.createObjectNode();
        groups.set("groups", spec.path("groups"));
        YAML.writeValue(extracted.toFile(), groups);
        Promtool.Result result = Promtool.run(dir, "check", "rules", extracted.toString());
        assertThat(result.exitCode()).as(result.output()).isZero();
    }

    @Test
    void anAlertThatNoLongerFiresFailsItsUnitTest(@TempDir Path dir) throws IOException {
        Path rules = copy(RULES, dir);
        copy(RULE_TESTS, dir);
        String text = Files.readString(rules);
        String firing = "expr: max(gateway_pool_credentials{condition=\"revoked\"}) > 0";
        assertThat(text).contains(firing);
        Files.writeString(rules, text.replace(firing, firing.replace("> 0", "> 5")));

        Promtool.Result result = Promtool.run(dir, "test", "rules", RULE_TESTS.toString());

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("FAILED").contains("RouteCredentialRevoked");
    }

    @Test
    void aBrokenExpressionFailsTheCheck(@TempDir Path dir) throws IOException {
        Path rules = copy(RULES, dir);
        String text = Files.readString(rules);
        Files.writeString(rules, text.replace("max(state_outbox_size) > 1000", "max(state_outbox_size > 1000"));

        Promtool.Result result = Promtool.run(dir, "check", "rules", RULES.toString());

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("FAILED");
    }

    private static Path copy(Path relative, Path dir) throws IOException {
        Path target = dir.resolve(relative);
        Files.createDirectories(target.getParent());
        Files.copy(RepoPaths.root().resolve(relative), target);
        return target;
    }

    /** The spec of the PrometheusRule rendered from examples/production.yaml, as a tree. */
    private static JsonNode renderedSpec() {
        return StrictManifestReader.read(Renders.render("production.yaml")).stream()
                .filter(manifest -> manifest.resource() instanceof PrometheusRule)
                .findFirst()
                .orElseThrow()
                .raw()
                .path("spec");
    }

    static Set<String> alerts() {
        Set<String> alerts = new TreeSet<>();
        for (JsonNode rule : rules(readYaml(RepoPaths.root().resolve(RULES)))) {
            if (rule.has("alert")) {
                alerts.add(rule.path("alert").asText());
            }
        }
        return alerts;
    }

    static List<JsonNode> rules(JsonNode file) {
        List<JsonNode> rules = new ArrayList<>();
        for (JsonNode group : file.path("groups")) {
            group.path("rules").forEach(rules::add);
        }
        return rules;
    }

    /** Alert name → the names of the tests that expect it to fire. */
    static Map<String, List<String>> firingTests() {
        Map<String, List<String>> firedBy = new LinkedHashMap<>();
        for (JsonNode test : readYaml(RepoPaths.root().resolve(RULE_TESTS)).path("tests")) {
            for (JsonNode check : test.path("alert_rule_test")) {
                JsonNode expected = check.path("exp_alerts");
                if (expected instanceof ArrayNode array && !array.isEmpty()) {
                    firedBy.computeIfAbsent(check.path("alertname").asText(), name -> new ArrayList<>())
                            .add(test.path("name").asText());
                }
            }
        }
        return firedBy;
    }

    static JsonNode readYaml(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalStateException(file + ": " + e.getMessage(), e);
        }
    }
}
