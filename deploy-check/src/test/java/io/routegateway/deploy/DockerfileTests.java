package io.routegateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No container engine runs here, so the Dockerfiles are checked statically against the Quarkus JVM layout and
 * against what the chart expects (user 185, the service's HTTP port).
 */
class DockerfileTests {

    static final List<String> SERVICES = RepoPaths.SERVICES;

    private static List<String> instructions(String service) throws IOException {
        Path dockerfile = RepoPaths.service(service).resolve("src/main/docker/Dockerfile.jvm");
        assertThat(dockerfile).exists();
        return Files.readAllLines(dockerfile).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("SERVICES")
    void followsTheQuarkusFastJarLayoutOnTheUbi9Java17Runtime(String service) throws IOException {
        List<String> lines = instructions(service);

        assertThat(lines.get(0))
                .matches("FROM registry\\.access\\.redhat\\.com/ubi9/openjdk-17-runtime:[0-9][0-9.\\-]*");
        assertThat(lines)
                .containsSubsequence(
                        "COPY --chown=185 target/quarkus-app/lib/ /deployments/lib/",
                        "COPY --chown=185 target/quarkus-app/*.jar /deployments/",
                        "COPY --chown=185 target/quarkus-app/app/ /deployments/app/",
                        "COPY --chown=185 target/quarkus-app/quarkus/ /deployments/quarkus/")
                .contains("USER 185", "ENV JAVA_APP_JAR=\"/deployments/quarkus-run.jar\"")
                .anyMatch(line -> line.startsWith("ENV JAVA_OPTS_APPEND=")
                        && line.contains("-Djava.util.logging.manager=org.jboss.logmanager.LogManager")
                        // a replica out of heap exits and is restarted rather than limping on
                        && line.contains("-XX:+ExitOnOutOfMemoryError"))
                .endsWith("ENTRYPOINT [ \"/opt/jboss/container/java/run/run-java.sh\" ]");
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("SERVICES")
    void exposesTheServicesHttpPort(String service) throws IOException {
        ServiceConfigKeys keys = ServiceConfigKeys.scan(RepoPaths.service(service));
        assertThat(keys.httpPort()).as("%s quarkus.http.port", service).isPresent();

        assertThat(instructions(service)).contains("EXPOSE " + keys.httpPort().getAsInt());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("SERVICES")
    void exposesTheServicesManagementPort(String service) throws IOException {
        ServiceConfigKeys keys = ServiceConfigKeys.scan(RepoPaths.service(service));
        assertThat(keys.managementPort())
                .as("%s quarkus.management.port", service)
                .isPresent();

        assertThat(instructions(service))
                .contains("EXPOSE " + keys.managementPort().getAsInt());
    }
}
