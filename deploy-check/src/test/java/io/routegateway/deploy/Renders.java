package io.routegateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/** The value sets every check runs against, rendered once per JVM. */
final class Renders {

    static final String DEFAULTS = "default values";

    private static final Map<String, String> CACHE = new ConcurrentHashMap<>();

    private Renders() {}

    /** "default values" plus every examples/*.yaml, by name. */
    static List<String> valueSets() {
        List<String> names = new ArrayList<>();
        names.add(DEFAULTS);
        try (Stream<Path> files = Files.list(RepoPaths.examplesDir())) {
            files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(".yaml"))
                    .sorted()
                    .forEach(names::add);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return names;
    }

    static String render(String valueSet) {
        return CACHE.computeIfAbsent(
                valueSet,
                name -> name.equals(DEFAULTS)
                        ? ChartRenderer.template(RepoPaths.chart())
                        : ChartRenderer.template(
                                RepoPaths.chart(), RepoPaths.examplesDir().resolve(name)));
    }

    static ManifestRules rules(String valueSet) {
        return new ManifestRules(StrictManifestReader.read(render(valueSet)));
    }

    /** The config keys of the three services, read from their sources once per JVM. */
    static Map<String, ServiceConfigKeys> services() {
        return ServicesHolder.SERVICES;
    }

    private static final class ServicesHolder {
        static final Map<String, ServiceConfigKeys> SERVICES = scanServices();

        private static Map<String, ServiceConfigKeys> scanServices() {
            Map<String, ServiceConfigKeys> services = new LinkedHashMap<>();
            for (String service : RepoPaths.SERVICES) {
                services.put(service, ServiceConfigKeys.scan(RepoPaths.service(service)));
            }
            return Map.copyOf(services);
        }
    }
}
