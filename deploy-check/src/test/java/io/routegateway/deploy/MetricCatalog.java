package io.routegateway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table of every metric in {@code docs/observability.md}: name, type, labels, service and when its series
 * appear. The dashboards, the alerts and the e2e scrape are checked against it.
 */
final class MetricCatalog {

    /** How a Prometheus metric is exported, and the series names each type exposes. */
    enum Type {
        COUNTER(List.of("")),
        GAUGE(List.of("")),
        HISTOGRAM(List.of("_bucket", "_count", "_sum", "_max")),
        SUMMARY(List.of("", "_count", "_sum", "_max"));

        final List<String> suffixes;

        Type(List<String> suffixes) {
            this.suffixes = suffixes;
        }
    }

    /** One row of the table. */
    record Metric(String name, Type type, List<String> labels, String service, String appears) {

        /** Whether a booted service exports it once the pool is configured and requests have flowed. */
        boolean expectedInAScrapeAfterTraffic() {
            return appears.equals("at start") || appears.equals("with traffic");
        }
    }

    static final Path DOC = Path.of("docs/observability.md");

    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z_:][a-z0-9_:]*)`\\s*\\|(.*)$");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private final Map<String, Metric> metrics;

    private MetricCatalog(Map<String, Metric> metrics) {
        this.metrics = metrics;
    }

    static MetricCatalog read(Path repoRoot) {
        String doc;
        try {
            doc = Files.readString(repoRoot.resolve(DOC));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Metric> metrics = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : doc.split("\n")) {
            if (line.startsWith("| Metric | Type | Labels | Service | Series appear | Meaning |")) {
                inTable = true;
                continue;
            }
            if (!inTable) {
                continue;
            }
            if (!line.startsWith("|")) {
                break;
            }
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                continue;
            }
            String[] cells = row.group(2).split("\\|");
            if (cells.length < 5) {
                throw new IllegalStateException(DOC + ": a metrics row needs six cells: " + line);
            }
            Type type = Type.valueOf(cells[0].strip().toUpperCase(java.util.Locale.ROOT));
            List<String> labels = new ArrayList<>();
            Matcher code = CODE.matcher(cells[1]);
            while (code.find()) {
                labels.add(code.group(1));
            }
            Metric metric = new Metric(row.group(1), type, List.copyOf(labels), cells[2].strip(), cells[3].strip());
            if (metrics.put(metric.name(), metric) != null) {
                throw new IllegalStateException(DOC + " lists " + metric.name() + " twice");
            }
        }
        if (metrics.isEmpty()) {
            throw new IllegalStateException(DOC + " has no metrics table");
        }
        return new MetricCatalog(metrics);
    }

    Map<String, Metric> all() {
        return metrics;
    }

    /** The documented metric a series name belongs to ({@code x_bucket} of histogram {@code x}, …). */
    Optional<Metric> owner(String series) {
        for (Metric metric : metrics.values()) {
            for (String suffix : metric.type().suffixes) {
                if (series.equals(metric.name() + suffix)) {
                    return Optional.of(metric);
                }
            }
        }
        return Optional.empty();
    }

    List<Metric> ofService(String service) {
        return metrics.values().stream()
                .filter(metric -> metric.service().equals(service))
                .toList();
    }
}
