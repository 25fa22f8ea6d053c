package io.routegateway.deploy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;

/** Thin wrapper over helm-java (the Helm Go library behind JNA; no helm binary, no cluster). */
final class ChartRenderer {

    /**
     * Kubernetes version the chart is rendered for. helm-java's template defaults to v1.20.0, below the chart's
     * kubeVersion constraint; renders target a current cluster instead.
     */
    static final String KUBE_VERSION = "v1.31.0";

    private ChartRenderer() {}

    /** {@code helm template route-gateway <chart> -f <valuesFiles...> --set k=v...}. Throws on render or schema errors. */
    static String template(Path chart, List<Path> valuesFiles, Map<String, Object> sets) {
        TemplateCommand command =
                new Helm(chart).template().withName(RepoPaths.RELEASE_NAME).withKubeVersion(KUBE_VERSION);
        for (Path valuesFile : valuesFiles) {
            command = command.withValuesFile(valuesFile);
        }
        for (Map.Entry<String, Object> set : sets.entrySet()) {
            command = command.set(set.getKey(), set.getValue());
        }
        return command.call();
    }

    static String template(Path chart, Path... valuesFiles) {
        return template(chart, List.of(valuesFiles), Map.of());
    }

    /** {@code helm lint --strict <chart>}: warnings count as failures. */
    static LintResult lintStrict(Path chart) {
        return new Helm(chart).lint().strict().call();
    }
}
