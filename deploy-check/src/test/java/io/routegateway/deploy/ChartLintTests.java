package io.routegateway.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ChartLintTests {

    @Test
    void chartPassesStrictLint() {
        LintResult result = ChartRenderer.lintStrict(RepoPaths.chart());

        assertThat(result.getMessages())
                .as("helm lint --strict messages")
                .noneMatch(message -> message.contains("[WARNING]") || message.contains("[ERROR]"));
        assertThat(result.isFailed())
                .as("helm lint --strict failed: %s", result.getMessages())
                .isFalse();
    }

    @Test
    void strictLintFailsOnABrokenChart(@TempDir Path tmp) throws Exception {
        Path chart = ChartCopies.copy(tmp);
        Path chartYaml = chart.resolve("Chart.yaml");
        Files.writeString(chartYaml, Files.readString(chartYaml).replace("version: 0.1.0", "version: not-semver"));

        LintResult result = ChartRenderer.lintStrict(chart);

        assertThat(result.isFailed()).isTrue();
        assertThat(String.join("\n", result.getMessages())).contains("version");
    }
}
