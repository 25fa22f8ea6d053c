package io.routegateway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The Grafana dashboards of the chart ({@code files/dashboards/*.json}) and the PromQL their panels run. */
final class DashboardQueries {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DashboardQueries() {}

    /** Every dashboard file, by file name, parsed. */
    static Map<String, JsonNode> dashboards(Path dir) {
        Map<String, JsonNode> dashboards = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                try {
                    dashboards.put(file.getFileName().toString(), JSON.readTree(file.toFile()));
                } catch (IOException e) {
                    throw new IllegalStateException(file.getFileName() + " is not valid JSON: " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dashboards;
    }

    /** {@code file / panel title / refId} → the query, for every target of every panel. */
    static Map<String, String> all(Path dir) {
        Map<String, String> queries = new LinkedHashMap<>();
        dashboards(dir).forEach((file, dashboard) -> {
            for (JsonNode panel : panels(dashboard)) {
                for (JsonNode target : panel.path("targets")) {
                    queries.put(
                            file + " / " + panel.path("title").asText() + " / "
                                    + target.path("refId").asText(),
                            target.path("expr").asText());
                }
            }
        });
        return queries;
    }

    /** The panels of a dashboard, those nested in collapsed rows included. */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new java.util.ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    /** The query with Grafana's interval variables replaced, as Prometheus would receive it. */
    static String asPromQl(String query) {
        return query.replace("$__rate_interval", "5m")
                .replace("$__interval", "1m")
                .replace("$__range", "1h");
    }
}
