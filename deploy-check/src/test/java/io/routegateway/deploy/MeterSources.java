package io.routegateway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Micrometer meters a service's main sources register, read from the code: each builder call
 * ({@code Counter.builder("…")}, {@code Timer.builder(CONSTANT)}, …) or registry shortcut
 * ({@code registry.counter("…", …)}), its name resolved through string constants of the same file, and the
 * Prometheus name and type it is exported under (Micrometer's naming: dots to underscores, {@code _total} for
 * counters, {@code _seconds} for timers; a timer or distribution summary with a percentile histogram or service
 * level objectives is a histogram, otherwise a summary).
 */
final class MeterSources {

    private static final Pattern BUILDER =
            Pattern.compile("\\b(Counter|Timer|Gauge|MultiGauge|DistributionSummary|FunctionCounter)\\.builder\\(\\s*"
                    + "(\"[^\"]+\"|[A-Z][A-Z0-9_]*)");
    private static final Pattern SHORTCUT =
            Pattern.compile("\\bregistry\\.(counter|gauge|timer|summary)\\(\\s*(\"[^\"]+\"|[A-Z][A-Z0-9_]*)");
    private static final Pattern CONSTANT =
            Pattern.compile("static\\s+final\\s+String\\s+([A-Z][A-Z0-9_]*)\\s*=\\s*\"([^\"]+)\"\\s*;");

    private MeterSources() {}

    /** Prometheus name → type of every meter registered under {@code <service>/src/main/java}. */
    static Map<String, MetricCatalog.Type> of(Path serviceDir) {
        Map<String, MetricCatalog.Type> meters = new TreeMap<>();
        Path sources = serviceDir.resolve("src/main/java");
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                scan(Files.readString(file), file, meters);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return meters;
    }

    private static void scan(String source, Path file, Map<String, MetricCatalog.Type> meters) {
        Map<String, String> constants = new HashMap<>();
        Matcher constant = CONSTANT.matcher(source);
        while (constant.find()) {
            constants.put(constant.group(1), constant.group(2));
        }
        Matcher builder = BUILDER.matcher(source);
        while (builder.find()) {
            String name = resolve(builder.group(2), constants, file);
            String chain = chainFrom(source, builder.end());
            MetricCatalog.Type type;
            String exported;
            switch (builder.group(1)) {
                case "Counter", "FunctionCounter" -> {
                    type = MetricCatalog.Type.COUNTER;
                    exported = prometheus(name) + "_total";
                }
                case "Timer" -> {
                    type = distribution(chain);
                    exported = prometheus(name) + "_seconds";
                }
                case "DistributionSummary" -> {
                    type = distribution(chain);
                    exported = prometheus(name);
                }
                default -> {
                    type = MetricCatalog.Type.GAUGE;
                    exported = prometheus(name);
                }
            }
            meters.put(exported, type);
        }
        Matcher shortcut = SHORTCUT.matcher(source);
        while (shortcut.find()) {
            String name = resolve(shortcut.group(2), constants, file);
            switch (shortcut.group(1)) {
                case "counter" -> meters.put(prometheus(name) + "_total", MetricCatalog.Type.COUNTER);
                case "timer" -> meters.put(prometheus(name) + "_seconds", MetricCatalog.Type.SUMMARY);
                case "summary" -> meters.put(prometheus(name), MetricCatalog.Type.SUMMARY);
                default -> meters.put(prometheus(name), MetricCatalog.Type.GAUGE);
            }
        }
    }

    private static String resolve(String literalOrConstant, Map<String, String> constants, Path file) {
        if (literalOrConstant.startsWith("\"")) {
            return literalOrConstant.substring(1, literalOrConstant.length() - 1);
        }
        String value = constants.get(literalOrConstant);
        if (value == null) {
            throw new IllegalStateException(file + ": meter name constant " + literalOrConstant
                    + " is not a string constant of the same file; MeterSources cannot read it");
        }
        return value;
    }

    /** The builder chain up to its {@code register(} call. */
    private static String chainFrom(String source, int from) {
        int end = source.indexOf(".register(", from);
        return end < 0 ? "" : source.substring(from, end);
    }

    private static MetricCatalog.Type distribution(String chain) {
        return chain.contains(".publishPercentileHistogram(") || chain.contains(".serviceLevelObjectives(")
                ? MetricCatalog.Type.HISTOGRAM
                : MetricCatalog.Type.SUMMARY;
    }

    private static String prometheus(String meterName) {
        return meterName.replace('.', '_');
    }
}
