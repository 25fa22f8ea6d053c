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
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    public long count(String name, String... labels) {
        return Math.round(sum(name, labels));
    }
}
