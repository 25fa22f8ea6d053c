package io.routegateway.e2e.support;

import java.util.Map;

/** Reads a service's Prometheus text ({@code /q/metrics} on its management port). */
public final class Metrics {

    private final String text;

    private Metrics(String text) {
        this.text = text;
    }

    public static Metrics of(ServiceProcess service) {
        Http.Response response = Http.send("GET", service.managementUrl() + "/q/metrics", Map.of(), null);
        if (response.status() != 200) {
            throw new AssertionError(service.name() + " metrics answered " + response.status());
        }
        return new Metrics(response.body());
    }

    /**
     * The sum of every sample of {@code name} whose labels contain all of {@code labels} (each
     * written {@code key="value"}); 0 when there is none.
     */
    public double sum(String name, String... labels) {
        double total = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                continue;
            }
            boolean matches = true;
            for (String label : labels) {
                matches &= line.contains(label);
            }
            if (matches) {
                total += value(line, name);
            }
        }
        return total;
    }

    /**
     * A sample line's value: the first token after the name and its labels. What may follow it (a
     * timestamp, or an exemplar {@code # {trace_id="…"} 1.0 1733…} once tracing is on the classpath)
     * is not the value.
     */
    static double value(String line, String name) {
        int at = name.length();
        if (line.charAt(at) == '{') {
            at = line.indexOf("} ", at) + 1;
        }
        String rest = line.substring(at).strip();
        int end = rest.indexOf(' ');
        return Double.parseDouble(end < 0 ? rest : rest.substring(0, end));
    }

    public long count(String name, String... labels) {
        return Math.round(sum(name, labels));
    }
}
