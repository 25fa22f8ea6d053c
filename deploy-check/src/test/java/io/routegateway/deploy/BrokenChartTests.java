package io.routegateway.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves the checks: each test breaks a copy of the chart the way a real edit could, and asserts that the check
 * catches it. A check that never fails would pass every render.
 */
class BrokenChartTests {

    @TempDir
    Path tmp;

    private String render(Path chart) {
        return ChartRenderer.template(chart);
    }

    private ManifestRules rules(Path chart) {
        return new ManifestRules(StrictManifestReader.read(render(chart)));
    }

    private ManifestRules rules(Path chart, Map<String, Object> sets) {
        return new ManifestRules(StrictManifestReader.read(ChartRenderer.template(chart, List.of(), sets)));
    }

    @Test
    void misspeltFieldIsRejected() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp), "templates/deployment.yaml", "imagePullPolicy:", "imagePullPolcy:");

        assertThatThrownBy(() -> StrictManifestReader.read(render(chart)))
                .isInstanceOf(StrictManifestReader.InvalidManifestException.class)
                .hasMessageContaining("Unrecognized field \"imagePullPolcy\"")
                .hasMessageContaining("spec.template.spec.containers[0].imagePullPolcy");
    }

    @Test
    void misspeltSpecFieldIsRejected() throws Exception {
        Path chart =
                ChartCopies.replace(ChartCopies.copy(tmp), "templates/deployment.yaml", "replicas: {{", "replica: {{");

        assertThatThrownBy(() -> StrictManifestReader.read(render(chart)))
                .hasMessageContaining("Unrecognized field \"replica\"");
    }

    @Test
    void quotedNumberIsRejected() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/deployment.yaml",
                "containerPort: {{ $c.port }}",
                "containerPort: {{ $c.port | quote }}");

        assertThatThrownBy(() -> StrictManifestReader.read(render(chart))).hasMessageContaining("containerPort");
    }

    @Test
    void numberWhereAStringBelongsIsRejected() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/configmap.yaml",
                "data:\n",
                "data:\n  RECOVERY_TICK_SECONDS_UNQUOTED: 30\n");

        assertThatThrownBy(() -> StrictManifestReader.read(render(chart)))
                .hasMessageContaining("RECOVERY_TICK_SECONDS_UNQUOTED");
    }

    @Test
    void unknownKindIsRejected() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp), "templates/pdb.yaml", "kind: PodDisruptionBudget", "kind: PodDisruptionBudgt");

        assertThatThrownBy(() -> StrictManifestReader.read(render(chart)))
                .hasMessageContaining("no model class for policy/v1 PodDisruptionBudgt");
    }

    @Test
    void serviceSelectorThatMatchesNoPodIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp), "templates/service.yaml", "  selector:\n", "  selector:\n    tier: frontend\n");

        assertThat(rules(chart).selectors()).anyMatch(v -> v.contains("selects 0 Deployments"));
    }

    @Test
    void deploymentSelectorThatMissesItsPodsIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/deployment.yaml",
                "    matchLabels:\n",
                "    matchLabels:\n      tier: backend\n");

        assertThat(rules(chart).selectors()).anyMatch(v -> v.contains("does not match its pod template labels"));
    }

    @Test
    void wrongProbePathIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp), "templates/deployment.yaml", "path: /q/health/ready", "path: /health/ready");

        assertThat(rules(chart).probes())
                .hasSize(3)
                .allMatch(v -> v.contains("readinessProbe path is /health/ready, expected /q/health/ready"));
    }

    @Test
    void aProbeOnTheApiPortIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/deployment.yaml",
                "path: /q/health/live\n              port: management",
                "path: /q/health/live\n              port: http");

        assertThat(rules(chart).probes())
                .hasSize(3)
                .allMatch(v -> v.contains("livenessProbe port")
                        && v.contains("value=http) is not the container's management port"));
    }

    @Test
    void aManagementPortThatDiffersFromTheServiceIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp), "templates/_helpers.tpl", "  managementPort: 9082", "  managementPort: 9000");

        assertThat(rules(chart).ports(Renders.services()))
                .anyMatch(v -> v.contains("management port 9000")
                        && v.contains("recovery-service serves health and metrics on quarkus.management.port=9082"));
    }

    @Test
    void recoveryServicesApiOpenToEveryPodOfTheReleaseIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/networkpolicy.yaml",
                "{{- include \"route-gateway.selectorLabels\" (dict \"root\" $ \"component\" \"state\") | nindent 14 }}",
                "{{- include \"route-gateway.releaseSelectorLabels\" $ | nindent 14 }}");

        assertThat(rules(chart).internalAccess())
                .anyMatch(
                        v -> v.contains("recovery-service's API port admits") && v.contains("state-service pods only"));
    }

    @Test
    void metricsPeersThatReachAnApiPortAreReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/networkpolicy.yaml",
                "        - port: {{ $c.managementPort }}\n          protocol: TCP",
                "        - port: {{ $c.managementPort }}\n          protocol: TCP\n        - port: {{ $c.port }}\n          protocol: TCP");

        assertThat(rules(chart, Map.of("networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.team", "obs"))
                        .internalAccess())
                .anyMatch(v -> v.contains("admits the management port together with"));
    }

    @Test
    void theInternalTokenGivenToTheGatewayIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/_config.tpl",
                "{{- if has .component (list \"state\" \"recovery\") }}\n{{ include \"route-gateway.secretKeyRefEnv\" (dict \"name\" \"ROUTE_INTERNAL_TOKEN\"",
                "{{- if true }}\n{{ include \"route-gateway.secretKeyRefEnv\" (dict \"name\" \"ROUTE_INTERNAL_TOKEN\"");

        assertThat(rules(chart).internalAccess())
                .anyMatch(v -> v.contains("gateway") && v.contains("gets ROUTE_INTERNAL_TOKEN but does not use it"));
    }

    @Test
    void theSigningKeyGivenToTheGatewayIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/_config.tpl",
                "{{- if eq .component \"state\" }}\n{{ include \"route-gateway.secretKeyRefEnv\" (dict \"name\" \"STATE_ADMIN_TOKEN\"",
                "{{- if true }}\n{{ include \"route-gateway.secretKeyRefEnv\" (dict \"name\" \"STATE_ADMIN_TOKEN\"");

        assertThat(rules(chart).internalAccess())
                .anyMatch(v -> v.contains("gateway")
                        && v.contains("gets ROUTE_STATE_SIGNING_PRIVATE_KEY; only state-service signs"));
    }

    @Test
    void aProducerKeyGivenToStateServiceIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/_config.tpl",
                "{{- if has .component (list \"gateway\" \"recovery\") }}\n"
                        + "{{- $producer := (index $v .component).producerSigning.privateKey }}",
                "{{- if has .component (list \"gateway\" \"recovery\" \"state\") }}\n"
                        + "{{- $producer := $v.gateway.producerSigning.privateKey }}");

        assertThat(rules(chart).internalAccess())
                .anyMatch(v -> v.startsWith("Deployment/route-gateway-state:")
                        && v.contains("gets ROUTE_PRODUCER_SIGNING_PRIVATE_KEY; only the gateway and recovery-service"))
                // the gateway's key in two Deployments: no longer its own
                .anyMatch(v -> v.contains("each producer signs with its own"));
    }

    @Test
    void containerPortThatDiffersFromTheServiceIsReported() throws Exception {
        Path chart =
                ChartCopies.replace(ChartCopies.copy(tmp), "templates/_helpers.tpl", "  port: 8081", "  port: 8090");

        assertThat(rules(chart).ports(Renders.services()))
                .anyMatch(v -> v.contains("container port 8090 but state-service listens on quarkus.http.port=8081"));
    }

    @Test
    void environmentVariableWithoutConfigKeyIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/_config.tpl",
                "GATEWAY_UPSTREAM_READ_GAP_TIMEOUT:",
                "GATEWAY_UPSTREAM_READ_GAP_TIMOUT:");

        assertThat(rules(chart).environment(Renders.services()))
                .anyMatch(v -> v.contains("GATEWAY_UPSTREAM_READ_GAP_TIMOUT maps to no config key of gateway-service"));
    }

    @Test
    void standardKeyOfAMissingExtensionIsReported() throws Exception {
        // gateway-service has no datasource: a datasource URL there would be silently ignored at run time.
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/_config.tpl",
                "{{- if eq .component \"gateway\" }}\n",
                "{{- if eq .component \"gateway\" }}\nQUARKUS_DATASOURCE_REACTIVE_URL: \"postgresql://db:5432/route\"\n");

        assertThat(rules(chart).environment(Renders.services()))
                .anyMatch(v -> v.contains("QUARKUS_DATASOURCE_REACTIVE_URL would set the standard key "
                        + "quarkus.datasource.reactive.url, but gateway-service depends on none of"));
    }

    @Test
    void literalSecretValueIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/deployment.yaml",
                "          env:\n",
                "          env:\n            - name: STATE_ADMIN_TOKEN\n              value: \"not-a-real-token-0123\"\n");

        assertThat(rules(chart).secrets())
                .anyMatch(v -> v.contains("STATE_ADMIN_TOKEN must come from a secretKeyRef, not a literal value"));
    }

    @Test
    void aLiteralKafkaPasswordInTheJaasLineIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/_config.tpl",
                "password=\\\"$(ROUTE_KAFKA_SCRAM_PASSWORD)\\\"",
                "password=\\\"hunter2\\\"");
        Map<String, Object> sasl = Map.of(
                "kafka.securityProtocol", "SASL_SSL",
                "gateway.kafka.scram.existingSecret", "route-gateway-kafka",
                "state.kafka.scram.existingSecret", "route-state-kafka",
                "recovery.kafka.scram.existingSecret", "route-recovery-kafka");

        ManifestRules rules = rules(chart, sasl);
        assertThat(rules.secrets())
                .hasSize(3)
                .allMatch(v -> v.contains("KAFKA_SASL_JAAS_CONFIG must come from a secretKeyRef, not a literal value"));
        // The password variable is then referenced by nothing and maps to no config key.
        assertThat(rules.environment(Renders.services()))
                .anyMatch(v -> v.contains("ROUTE_KAFKA_SCRAM_PASSWORD maps to no config key"));
    }

    @Test
    void renderedSecretIsReported() throws Exception {
        Path chart = ChartCopies.copy(tmp);
        Files.writeString(
                chart.resolve("templates/secret.yaml"),
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: leaked\n"
                        + "  labels:\n    {{- include \"route-gateway.labels\" (dict \"root\" $) | nindent 4 }}\n"
                        + "data:\n  admin-token: bm90LWEtcmVhbC10b2tlbg==\n");

        assertThat(rules(chart).secrets())
                .contains("Secret/leaked: the chart must not render Secrets; reference existing ones");
    }

    @Test
    void credentialsInAUrlAreReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/_config.tpl",
                "printf \"postgresql://%s\"",
                "printf \"postgresql://route:hunter2@%s\"");

        assertThat(rules(chart).secrets())
                .anyMatch(v -> v.contains("QUARKUS_DATASOURCE_REACTIVE_URL embeds credentials"));
    }

    @Test
    void writableRootFilesystemIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp),
                "templates/deployment.yaml",
                "readOnlyRootFilesystem: true",
                "readOnlyRootFilesystem: false");

        assertThat(rules(chart).hardening())
                .hasSize(3)
                .allMatch(v -> v.contains("readOnlyRootFilesystem must be true"));
    }

    @Test
    void missingStandardLabelIsReported() throws Exception {
        Path chart = ChartCopies.replace(
                ChartCopies.copy(tmp), "templates/_helpers.tpl", "system: {{ $root.Values.system }}\n", "");

        assertThat(rules(chart).labels()).isNotEmpty().allMatch(v -> v.endsWith("label system is missing"));
    }

    @Test
    void brokenChartStillRendersOtherwise() throws Exception {
        // Guard for the tests above: an unmodified copy renders and passes the structural rules.
        ManifestRules rules = rules(ChartCopies.copy(tmp));
        assertThat(List.of(rules.labels(), rules.selectors(), rules.probes(), rules.secrets(), rules.hardening()))
                .allMatch(List::isEmpty);
    }
}
