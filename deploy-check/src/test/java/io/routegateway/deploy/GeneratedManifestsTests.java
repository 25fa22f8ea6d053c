package io.routegateway.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * k8s/route-gateway.yaml is the chart rendered with default values. It is generated, never edited: this test
 * fails when it differs from a fresh render and, with {@code -Dk8s.regenerate=true}, rewrites it.
 */
class GeneratedManifestsTests {

    static final String REGENERATE_COMMAND = "mvn -B -pl deploy-check verify -Dk8s.regenerate=true";

    static final String BANNER = """
            # GENERATED from deploy/helm/route-gateway — do not edit; regenerate with:
            #   %s
            # The chart rendered with its default values (release name "%s"). No namespace is set:
            #   kubectl apply -n <namespace> -f k8s/route-gateway.yaml
            # `mvn verify` (deploy-check) fails when this file differs from a fresh render.
            """.formatted(REGENERATE_COMMAND, RepoPaths.RELEASE_NAME);

    static String expectedContent() {
        String render = Renders.render(Renders.DEFAULTS).strip();
        return BANNER + render + "\n";
    }

    /** The first line where the two differ, or empty when they are equal. */
    static Optional<String> firstDifference(String expected, String actual) {
        if (expected.equals(actual)) {
            return Optional.empty();
        }
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String el = i < e.length ? e[i] : "<end of file>";
            String al = i < a.length ? a[i] : "<end of file>";
            if (!el.equals(al)) {
                return Optional.of("line " + (i + 1) + ": expected «" + el + "» but found «" + al + "»");
            }
        }
        return Optional.of("line endings differ");
    }

    /** With -Dk8s.regenerate=true the file is rewritten before the checks run. */
    @BeforeAll
    static void regenerateWhenAsked() throws Exception {
        if (Boolean.getBoolean("k8s.regenerate")) {
            Path file = RepoPaths.k8sManifest();
            Files.createDirectories(file.getParent());
            Files.writeString(file, expectedContent());
            System.out.println("Regenerated " + file);
        }
    }

    @Test
    void k8sManifestsEqualAFreshRender() throws Exception {
        Path file = RepoPaths.k8sManifest();
        String expected = expectedContent();
        assertThat(file)
                .as("%s is missing; generate it with: %s", file, REGENERATE_COMMAND)
                .exists();
        Optional<String> difference = firstDifference(expected, Files.readString(file));

        assertThat(difference)
                .as(
                        "k8s/route-gateway.yaml is stale (%s); regenerate it with: %s",
                        difference.orElse(""), REGENERATE_COMMAND)
                .isEmpty();
    }

    @Test
    void k8sManifestsParseStrictly() throws Exception {
        assertThat(StrictManifestReader.read(Files.readString(RepoPaths.k8sManifest())))
                .isNotEmpty();
    }

    @Test
    void staleCopyIsDetected() {
        String expected = expectedContent();
        String edited = expected.replace("imagePullPolicy: IfNotPresent", "imagePullPolicy: Always");

        assertThat(firstDifference(expected, edited))
                .hasValueSatisfying(
                        d -> assertThat(d)
                                .contains(
                                        "expected «          imagePullPolicy: IfNotPresent» but found «          imagePullPolicy: Always»"));
        assertThat(firstDifference(expected, expected)).isEmpty();
    }
}
