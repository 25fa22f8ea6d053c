package io.routegateway.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Locations in the repository, resolved from the {@code repo.root} system property set by the build. */
final class RepoPaths {

    /** The three services; each directory name is also the {@code app.kubernetes.io/component} label value. */
    static final List<String> SERVICES = List.of("gateway-service", "state-service", "recovery-service");

    static final String RELEASE_NAME = "route-gateway";

    private RepoPaths() {}

    static Path root() {
        String root = System.getProperty("repo.root");
        Path path = root == null || root.isBlank() ? Path.of("..") : Path.of(root);
        path = path.toAbsolutePath().normalize();
        if (!Files.isRegularFile(path.resolve("pom.xml")) || !Files.isDirectory(chart(path))) {
            throw new IllegalStateException("repo.root does not point at the repository: " + path);
        }
        return path;
    }

    static Path chart() {
        return chart(root());
    }

    private static Path chart(Path root) {
        return root.resolve("deploy/helm/route-gateway");
    }

    static Path examplesDir() {
        return chart().resolve("examples");
    }

    static Path k8sManifest() {
        return root().resolve("k8s/route-gateway.yaml");
    }

    static Path service(String service) {
        return root().resolve(service);
    }
}
