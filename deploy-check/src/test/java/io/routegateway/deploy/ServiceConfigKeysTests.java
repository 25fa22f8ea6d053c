package io.routegateway.deploy;

import java.net.URISyntaxException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The key scanner against a fixture service (src/test/resources/fixture/demo-service). */
class ServiceConfigKeysTests {

    private static ServiceConfigKeys demo() throws URISyntaxException {
        Path fixture = Path.of(ServiceConfigKeysTests.class
                .getResource("/fixture/demo-service")
                .toURI());
        return ServiceConfigKeys.scan(fixture);
    }

    @Test
    void readsApplicationPropertiesWithoutProfilePrefixes() throws Exception {
        assertThat(demo().keys()).contains("demo.plain", "demo.secret", "quarkus.http.port");
    }

    @Test
    void readsHttpPortThroughAnExpressionDefault() throws Exception {
        assertThat(demo().httpPort()).hasValue(9090);
    }

    @Test
    void expandsConfigMappingInterfaces() throws Exception {
        assertThat(demo().keys())
                .contains(
                        "demo.upstream.connect-timeout",
                        "demo.upstream.state-service-url",
                        "demo.max-request-bytes",
                        "demo.tick-interval",
                        "demo.limits.*.rpm",
                        "demo.region",
                        "demo.injected.value")
                .doesNotContain("demo.helper", "demo.shared.region", "demo.max-body");
    }

    @Test
    void readsTheRepositoryModulesTheServiceDependsOn() throws Exception {
        ServiceConfigKeys demo = demo();

        assertThat(demo.keys()).contains("route.secret-encryption-key", "demo.library.default");
        assertThat(demo.keyFor("ROUTE_SECRET_ENCRYPTION_KEY"))
                .hasValueSatisfying(
                        key -> assertThat(key).contains("demo-common/src/main/java/demo/common/SharedConfig.java"));
        assertThat(demo.extensions()).contains("quarkus-scheduler");
    }

    @Test
    void mapsEnvironmentVariablesToKeys() throws Exception {
        ServiceConfigKeys demo = demo();

        assertThat(demo.keyFor("DEMO_UPSTREAM_CONNECT_TIMEOUT")).isPresent();
        assertThat(demo.keyFor("DEMO_UPSTREAM_STATE_SERVICE_URL")).isPresent();
        assertThat(demo.keyFor("DEMO_LIMITS_OPENAI_RPM")).isPresent();
        assertThat(demo.keyFor("DEMO_UPSTREAM_CONECT_TIMEOUT")).isEmpty();
        assertThat(demo.keyFor("demo_upstream_connect_timeout")).isEmpty();
    }

    @Test
    void acceptsStandardKeysOnlyWithTheirExtension() throws Exception {
        ServiceConfigKeys demo = demo();

        // quarkus-messaging-kafka comes from the parent pom
        assertThat(demo.keyFor("KAFKA_SASL_JAAS_CONFIG")).isPresent();
        assertThat(demo.keyFor("QUARKUS_DATASOURCE_REACTIVE_URL")).isPresent();
        // quarkus-jdbc-postgresql is test-scoped only, quarkus-agroal only managed
        assertThat(demo.keyFor("QUARKUS_DATASOURCE_JDBC_URL")).isEmpty();
        assertThat(demo.explainMissing("QUARKUS_DATASOURCE_JDBC_URL"))
                .contains("standard key quarkus.datasource.jdbc.url")
                .contains("[quarkus-jdbc-postgresql]");
        assertThat(demo.extensions())
                .contains("quarkus-messaging-kafka", "quarkus-reactive-pg-client")
                .doesNotContain("quarkus-jdbc-postgresql", "quarkus-agroal");
    }

    @Test
    void kebabCaseFollowsSmallRyeNaming() {
        assertThat(ServiceConfigKeys.MappingScanner.kebab("secretEncryptionKey"))
                .isEqualTo("secret-encryption-key");
        assertThat(ServiceConfigKeys.MappingScanner.kebab("stateServiceURL")).isEqualTo("state-service-url");
        assertThat(ServiceConfigKeys.MappingScanner.kebab("tickSeconds")).isEqualTo("tick-seconds");
    }

    @Test
    void environmentNameFollowsMicroProfileRules() {
        assertThat(ServiceConfigKeys.toEnvironmentVariable("gateway.upstream.connect-timeout"))
                .isEqualTo("GATEWAY_UPSTREAM_CONNECT_TIMEOUT");
        assertThat(ServiceConfigKeys.toEnvironmentVariable("kafka.bootstrap.servers"))
                .isEqualTo("KAFKA_BOOTSTRAP_SERVERS");
    }
}
