package io.routegateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every metric the dashboards and alerts query is in docs/observability.md's table (under a series name its
 * type exports) and is registered by the service the table names, read from that service's code; every meter
 * the services register is in the table, under the type it is exported as.
 */
class MetricNamesTests {

    /**
     * Rows the table documents before their code has landed on this branch (the admission feature's counter).
     * They may be absent from the sources but must not be queried: a dashboard or alert on them would read
     * nothing.
     */
    static final Set<String> DOCUMENTED_AHEAD_OF_CODE = Set.of("gateway_admission_refusals_total");

    private final MetricCatalog catalog = MetricCatalog.read(RepoPaths.root());

    @Test
    void everyQueriedMetricIsDocumentedAndExportedByItsService() {
        Map<String, Set<String>> queried = queriedNames();
        assertThat(queried).isNotEmpty();
        Map<String, Map<String, MetricCatalog.Type>> registered = registeredByService();

        List<String> problems = new ArrayList<>();
        queried.forEach((name, where) -> {
            Optional<MetricCatalog.Metric> metric = catalog.owner(name);
            if (metric.isEmpty()) {
                problems.add(name + " (queried by " + where + ") is not in " + MetricCatalog.DOC);
                return;
            }
            MetricCatalog.Metric documented = metric.get();
            Map<String, MetricCatalog.Type> meters = registered.get(documented.service());
            if (meters == null) {
                problems.add(documented.name() + ": unknown service " + documented.service());
            } else if (!meters.containsKey(documented.name())) {
                problems.add(
                        documented.name() + " (queried by " + where + ") is not registered by " + documented.service());
            }
        });
        assertThat(problems).isEmpty();
        System.out.println("Queried metrics, all documented and registered: " + queried.keySet());
    }

    @Test
    void everyRegisteredMeterIsDocumentedWithItsTypeAndService() {
        List<String> problems = new ArrayList<>();
        registeredByService()
                .forEach((service, meters) -> meters.forEach((name, type) -> {
                    MetricCatalog.Metric documented = catalog.all().get(name);
                    if (documented == null) {
                        problems.add(service + " registers " + name + " (" + type + "), not in " + MetricCatalog.DOC);
                    } else if (documented.type() != type
                            || !documented.service().equals(service)) {
                        problems.add(name + ": the table says " + documented.type() + " of " + documented.service()
                                + ", the code registers a " + type + " in " + service);
                    }
                }));
        assertThat(problems).isEmpty();
    }

    @Test
    void everyDocumentedMetricIsRegisteredUnlessItsCodeIsStillToLand() {
        Map<String, Map<String, MetricCatalog.Type>> registered = registeredByService();
        List<String> missing = new ArrayList<>();
        for (MetricCatalog.Metric metric : catalog.all().values()) {
            Map<String, MetricCatalog.Type> meters = registered.getOrDefault(metric.service(), Map.of());
            if (!meters.containsKey(metric.name()) && !DOCUMENTED_AHEAD_OF_CODE.contains(metric.name())) {
                missing.add(metric.name() + " (" + metric.service() + ")");
            }
        }
        assertThat(missing).as("documented but registered nowhere").isEmpty();
        assertThat(queriedNames().keySet())
                .as("metrics still to land are not queried yet")
                .doesNotContainAnyElementsOf(DOCUMENTED_AHEAD_OF_CODE);
    }

    @Test
    void theNameReaderFindsMetricsButNotFunctionsLabelsStringsOrVariables() {
        assertThat(PromQlNames.of("max by (model) (gateway_pool_model_credentials{state=\"available\"}) == 0"))
                .containsExactly("gateway_pool_model_credentials");
        assertThat(PromQlNames.of("label_replace(sum(increase(state_events_dead_lettered_total[10m])), \"topic\","
                        + " \"route.outcomes.dlq\", \"\", \"\") > 0 or vector(0)"))
                .containsExactly("state_events_dead_lettered_total");
        assertThat(
                        PromQlNames.of(
                                "histogram_quantile(0.99, sum by (le, gen_ai_token_type)"
                                        + " (rate(gen_ai_client_token_usage_bucket[$__rate_interval]))) / on(instance) group_left(x) up"))
                .containsExactly("gen_ai_client_token_usage_bucket", "up");
        assertThat(PromQlNames.of("sum without (condition) (a{b=~\"c|d\"}) / ignoring (e) b_total offset 5m"))
                .containsExactly("a", "b_total");
    }

    @Test
    void theSourceReaderNamesMetersAsPrometheusExportsThem(@TempDir Path service) throws IOException {
        Path sources = Files.createDirectories(service.resolve("src/main/java/demo"));
        Files.writeString(sources.resolve("DemoMetrics.java"), """
                class DemoMetrics {
                    static final String APPLIED = "demo.events.applied";
                    void register(MeterRegistry registry) {
                        Counter.builder(APPLIED).register(registry);
                        Timer.builder("demo.latency").publishPercentileHistogram().register(registry);
                        Timer.builder("demo.delay").publishPercentiles(0.5, 0.99).register(registry);
                        DistributionSummary.builder("demo.token.usage").serviceLevelObjectives(1, 4).register(registry);
                        Gauge.builder("demo.queue.size", this, x -> 1).register(registry);
                        registry.counter("demo.ticks", "role", "leader");
                    }
                }
                """);

        assertThat(MeterSources.of(service))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "demo_events_applied_total", MetricCatalog.Type.COUNTER,
                        "demo_latency_seconds", MetricCatalog.Type.HISTOGRAM,
                        "demo_delay_seconds", MetricCatalog.Type.SUMMARY,
                        "demo_token_usage", MetricCatalog.Type.HISTOGRAM,
                        "demo_queue_size", MetricCatalog.Type.GAUGE,
                        "demo_ticks_total", MetricCatalog.Type.COUNTER));
    }

    /** Metric name → where it is queried (alert or dashboard panel). */
    private static Map<String, Set<String>> queriedNames() {
        Map<String, Set<String>> queried = new TreeMap<>();
        Path root = RepoPaths.root();
        for (JsonNode rule : PromtoolTests.rules(PromtoolTests.readYaml(root.resolve(PromtoolTests.RULES)))) {
            String where =
                    "alert " + rule.path("alert").asText(rule.path("record").asText());
            for (String name : PromQlNames.of(rule.path("expr").asText())) {
                queried.computeIfAbsent(name, n -> new TreeSet<>()).add(where);
            }
        }
        DashboardQueries.all(root.resolve(PromtoolTests.DASHBOARDS)).forEach((where, query) -> {
            for (String name : PromQlNames.of(query)) {
                queried.computeIfAbsent(name, n -> new TreeSet<>()).add(where);
            }
        });
        return queried;
    }

    private static Map<String, Map<String, MetricCatalog.Type>> registeredByService() {
        Map<String, Map<String, MetricCatalog.Type>> registered = new LinkedHashMap<>();
        for (String service : RepoPaths.SERVICES) {
            registered.put(service, MeterSources.of(RepoPaths.service(service)));
        }
        // meters every service registers through the shared module (documented under "service-common")
        registered.put("service-common", MeterSources.of(RepoPaths.root().resolve("service-common")));
        return registered;
    }
}
