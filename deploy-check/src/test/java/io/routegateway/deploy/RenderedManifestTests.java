package io.routegateway.deploy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Every value set (defaults and each example) renders into manifests that satisfy every rule. */
class RenderedManifestTests {

    static List<String> valueSets() {
        return Renders.valueSets();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void rendersIntoStrictlyValidManifests(String valueSet) {
        List<StrictManifestReader.Manifest> manifests = StrictManifestReader.read(Renders.render(valueSet));

        assertThat(manifests).isNotEmpty();
        assertThat(new ManifestRules(manifests).all(Deployment.class))
                .extracting(
                        d -> d.getSpec().getTemplate().getMetadata().getLabels().get(ManifestRules.COMPONENT_LABEL))
                .containsExactlyInAnyOrderElementsOf(RepoPaths.SERVICES);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void everyResourceCarriesTheStandardLabels(String valueSet) {
        assertThat(Renders.rules(valueSet).labels()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void selectorsMatchPodTemplateLabels(String valueSet) {
        assertThat(Renders.rules(valueSet).selectors()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void probesUseTheQuarkusHealthEndpoints(String valueSet) {
        assertThat(Renders.rules(valueSet).probes()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void containerPortsAreTheServicesHttpPorts(String valueSet) {
        assertThat(Renders.rules(valueSet).ports(Renders.services())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void everyEnvironmentVariableMapsToARealConfigKey(String valueSet) {
        assertThat(Renders.rules(valueSet).environment(Renders.services())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void noSecretIsWrittenInPlainText(String valueSet) {
        assertThat(Renders.rules(valueSet).secrets()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void recoveryServicesApiAndTheManagementPortsAdmitOnlyWhoNeedsThem(String valueSet) {
        assertThat(Renders.rules(valueSet).internalAccess()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSets")
    void podsAreHardened(String valueSet) {
        assertThat(Renders.rules(valueSet).hardening()).isEmpty();
    }

    @Test
    void defaultValuesRenderTheExpectedKinds() {
        Map<String, Integer> counts = Renders.rules(Renders.DEFAULTS).kindCounts();
        System.out.println("Rendered with default values: " + counts);

        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("NetworkPolicy", 3);
        expected.put("PodDisruptionBudget", 3);
        expected.put("ServiceAccount", 1);
        expected.put("ConfigMap", 3);
        expected.put("Service", 3);
        expected.put("Deployment", 3);
        expected.put("HorizontalPodAutoscaler", 1);
        assertThat(counts).containsExactlyEntriesOf(expected);
    }

    @Test
    void productionExampleRendersIngressMonitoringAndTheAdminOpening() {
        ManifestRules rules = Renders.rules("production.yaml");

        assertThat(rules.kindCounts())
                .containsEntry("Ingress", 1)
                .containsEntry("ServiceMonitor", 1)
                .containsEntry("HorizontalPodAutoscaler", 1);
        String render = Renders.render("production.yaml");
        assertThat(render)
                .contains("KAFKA_SASL_JAAS_CONFIG")
                .contains("kubernetes.io/metadata.name: route-ops")
                .contains("sslmode=require");
    }

    @Test
    void theGatewayCapsItsConnectionsAndTheProductionIngressBoundsEachAddressAndTheHeaderRead() {
        String defaults = Renders.render(Renders.DEFAULTS);
        assertThat(defaults).contains("QUARKUS_HTTP_LIMITS_MAX_CONNECTIONS: \"8192\"");
        String production = Renders.render("production.yaml");
        assertThat(production)
                .contains("nginx.ingress.kubernetes.io/limit-connections: \"64\"")
                .contains("client_header_timeout 10s;");
    }

    @Test
    void theHostPolicyReachesEveryServiceThatSendsASecret() {
        String render = Renders.render(Renders.DEFAULTS);
        // state-service checks base_url on write, the gateway and recovery-service the resolved address
        assertThat(render.split("ROUTE_UPSTREAM_HOSTS_ALLOW_CLEARTEXT_PUBLIC", -1))
                .hasSize(4);
    }

    @Test
    void minimalExampleRunsOneReplicaEachWithoutAutoscaling() {
        ManifestRules rules = Renders.rules("minimal.yaml");

        assertThat(rules.kindCounts()).doesNotContainKey("HorizontalPodAutoscaler");
        assertThat(rules.all(Deployment.class))
                .allSatisfy(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(1));
    }
}
