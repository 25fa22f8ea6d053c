package io.routegateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Copies of the chart that a negative test may break on purpose. */
final class ChartCopies {

    private ChartCopies() {}

    static Path copy(Path tmp) throws IOException {
        Path source = RepoPaths.chart();
        Path target = tmp.resolve("route-gateway");
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.toList()) {
                Path copy = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
        return target;
    }

    /** Replaces text in one file of a chart copy; fails if the text is not there (the test would prove nothing). */
    static Path replace(Path chart, String file, String text, String replacement) throws IOException {
        Path path = chart.resolve(file);
        String content = Files.readString(path);
        assertThat(content).as("%s must contain the text to break", file).contains(text);
        Files.writeString(path, content.replace(text, replacement));
        return chart;
    }
}
